import { Button, Group, Text } from '@mantine/core';
import { IconRotate, IconRotateClockwise } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';

const tool = toolById('rotate');

/** The preview turns in the browser; the file you download is rendered by the server. */
export function RotatePage() {
  const { t } = useTranslation();
  const [angle, setAngle] = useState(0);
  return (
    <ToolPage
      tool={tool}
      endpoint="/api/rotate"
      submitLabel={t('rotate.submit')}
      downloadOnDone
      onFileChange={() => setAngle(0)}
      // Bounded by a square, the turned preview never spills over the page at any angle.
      previewStyle={{
        transform: `rotate(${angle}deg)`,
        transition: 'transform 150ms ease',
        width: 260,
        height: 260,
        maxWidth: '100%',
      }}
      fields={(form) => form.append('angle', String(angle))}
      options={
        <Group justify="center">
          <Button
            variant="light"
            leftSection={<IconRotate size={18} />}
            onClick={() => setAngle((a) => a - 90)}
          >
            {t('rotate.left')}
          </Button>
          <Text fw={600} aria-live="polite" miw={60} ta="center">
            {angle}°
          </Text>
          <Button
            variant="light"
            rightSection={<IconRotateClockwise size={18} />}
            onClick={() => setAngle((a) => a + 90)}
          >
            {t('rotate.right')}
          </Button>
        </Group>
      }
    />
  );
}
