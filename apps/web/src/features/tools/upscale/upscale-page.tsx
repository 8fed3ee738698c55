import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  toolById,
  UPSCALE_MAX_INPUT_PIXELS,
  UPSCALE_MODEL_SECONDS_PER_MP,
} from '@refract/contracts';
import { JobToolPage } from '../../../components/tool/job-tool-page';
import { formatNumber, formatWait } from '../../../lib/format';
import { LabelledChoice } from '../../../components/tool/labelled-choice';

const tool = toolById('upscale');

type Method = 'model' | 'fast';
type Scale = '2' | '4';

/** The chosen image's pixel count, read by the browser (for the limit and the estimate). */
function usePixels(file: File | null): number | null {
  const [pixels, setPixels] = useState<number | null>(null);
  useEffect(() => {
    setPixels(null);
    if (!file) return;
    let live = true;
    createImageBitmap(file)
      .then((bitmap) => {
        if (live) setPixels(bitmap.width * bitmap.height);
        bitmap.close();
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [file]);
  return pixels;
}

export function UpscalePage() {
  const { t } = useTranslation();
  const [method, setMethod] = useState<Method>('model');
  const [scale, setScale] = useState<Scale>('2');
  const [file, setFile] = useState<File | null>(null);
  const pixels = usePixels(file);
  const limit = UPSCALE_MAX_INPUT_PIXELS[scale];
  const megapixels = (n: number) => formatNumber(Math.round(n / 100_000) / 10);
  const tooLarge = pixels !== null && pixels > limit;
  const seconds = pixels && Math.ceil((pixels / 1_000_000) * UPSCALE_MODEL_SECONDS_PER_MP[scale]);
  return (
    // A job: an upscale may take minutes, so its progress shows tile by tile and it may be cancelled.
    <JobToolPage
      kind="image"
      tool={tool}
      endpoint="/api/upscale"
      submitLabel={t('upscale.submitScale', { scale })}
      onFileChange={setFile}
      fields={(form) => {
        form.append('scale', scale);
        form.append('method', method);
      }}
      options={
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <LabelledChoice
              label={t('upscale.method')}
              value={method}
              onChange={setMethod}
              data={[
                { value: 'model', label: t('upscale.model') },
                { value: 'fast', label: t('upscale.fast') },
              ]}
            />
            <LabelledChoice
              label={t('upscale.scale')}
              value={scale}
              onChange={setScale}
              data={[
                { value: '2', label: '×2' },
                { value: '4', label: '×4' },
              ]}
            />
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            {method === 'model'
              ? t('upscale.modelHint', { megapixels: megapixels(limit), scale })
              : t('upscale.fastHint', { scale })}
          </Text>
          {tooLarge ? (
            <Text size="sm" c="red">
              {t('upscale.tooLarge', {
                megapixels: megapixels(pixels),
                limit: megapixels(limit),
                scale,
              })}
            </Text>
          ) : (
            method === 'model' &&
            pixels !== null && (
              <Text size="sm">{t('upscale.estimate', { duration: formatWait(seconds ?? 0) })}</Text>
            )
          )}
        </Stack>
      }
    />
  );
}
