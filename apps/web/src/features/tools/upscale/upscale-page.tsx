import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';

const tool = toolById('upscale');

export function UpscalePage() {
  const { t } = useTranslation();
  return (
    <ToolPage
      tool={tool}
      endpoint="/api/upscale"
      submitLabel={t('upscale.submit')}
      fields={() => undefined}
      options={
        <Text size="sm" c="dimmed">
          {t('upscale.hint')}
        </Text>
      }
    />
  );
}
