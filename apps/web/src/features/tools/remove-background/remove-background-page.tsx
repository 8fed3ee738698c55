import { ColorInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById, type RemoveBackgroundFormat } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';
import { BeforeAfter } from './before-after';
import { LabelledChoice } from '../../../components/tool/labelled-choice';

const tool = toolById('removeBackground');

type BackgroundChoice = 'transparent' | 'colour';

export function RemoveBackgroundPage() {
  const { t } = useTranslation();
  const [format, setFormat] = useState<RemoveBackgroundFormat>('png');
  const [choice, setChoice] = useState<BackgroundChoice>('transparent');
  const [colour, setColour] = useState('#ffffff');

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/remove-background"
      submitLabel={t('removeBackground.submit')}
      failedMessage={t('removeBackground.failed')}
      fields={(form) => {
        form.append('format', format);
        if (choice === 'colour') form.append('background', colour);
      }}
      resultPreview={(result, before) => <BeforeAfter before={before.url} after={result.url} />}
      options={
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('removeBackground.hint')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <LabelledChoice
              label={t('removeBackground.format')}
              value={format}
              onChange={setFormat}
              data={[
                { value: 'png', label: 'PNG' },
                { value: 'webp', label: t('removeBackground.webpLossless') },
              ]}
            />
            <LabelledChoice
              label={t('removeBackground.background')}
              value={choice}
              onChange={setChoice}
              data={[
                { value: 'transparent', label: t('removeBackground.transparent') },
                { value: 'colour', label: t('removeBackground.colour') },
              ]}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('removeBackground.formatHint')}
          </Text>
          {choice === 'colour' && (
            <ColorInput
              label={t('removeBackground.colourLabel')}
              format="hex"
              // A colour code reads left to right in Arabic too (#ffffff, not ffffff#).
              styles={{ input: { unicodeBidi: 'plaintext' } }}
              // Its eye-dropper button has no name to give a screen reader; swatches suffice.
              withEyeDropper={false}
              value={colour}
              onChange={setColour}
              onBlur={() => /^#[0-9a-f]{6}$/i.test(colour) || setColour('#ffffff')}
              swatches={['#ffffff', '#000000', '#f1f3f5', '#1c7ed6', '#2f9e44']}
            />
          )}
        </Stack>
      }
    />
  );
}
