import { SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';
import type { MemeSettings } from './draw-meme';
import { MemePreview } from './meme-preview';

const tool = toolById('meme');

/** Open to visitors (spec section 2); making a meme needs an account, which the server checks. */
export function MemePage() {
  const { t } = useTranslation();
  const [meme, setMeme] = useState<MemeSettings>({
    topText: '',
    bottomText: '',
    position: 'inside',
    background: 'white',
  });
  const set = (changes: Partial<MemeSettings>) => setMeme((m) => ({ ...m, ...changes }));

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/meme"
      submitLabel={t('meme.submit')}
      downloadOnDone
      failedMessage={t('meme.failed')}
      showSizes={false}
      fields={(form) => {
        form.append('topText', meme.topText);
        form.append('bottomText', meme.bottomText);
        form.append('position', meme.position);
        form.append('background', meme.background);
      }}
      editor={({ url }) => <MemePreview url={url} meme={meme} />}
      options={
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('meme.topText')}
              value={meme.topText}
              maxLength={200}
              onChange={(event) => set({ topText: event.currentTarget.value })}
            />
            <TextInput
              label={t('meme.bottomText')}
              value={meme.bottomText}
              maxLength={200}
              onChange={(event) => set({ bottomText: event.currentTarget.value })}
            />
          </SimpleGrid>
          <div>
            <Text size="sm" fw={500} id="meme-position-label">
              {t('meme.position')}
            </Text>
            <SegmentedControl
              aria-labelledby="meme-position-label"
              value={meme.position}
              onChange={(position) => set({ position: position as MemeSettings['position'] })}
              data={[
                { value: 'inside', label: t('meme.inside') },
                { value: 'outside', label: t('meme.outside') },
              ]}
            />
          </div>
          {meme.position === 'outside' && (
            <Select
              label={t('meme.background')}
              value={meme.background}
              allowDeselect={false}
              onChange={(background) =>
                background && set({ background: background as MemeSettings['background'] })
              }
              data={[
                { value: 'white', label: t('meme.white') },
                { value: 'black', label: t('meme.black') },
              ]}
            />
          )}
        </Stack>
      }
    />
  );
}
