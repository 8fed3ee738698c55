import { Group, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';
import { ResizeOptions } from './resize-options';
import {
  aspectLabel,
  DEFAULT_SETTINGS,
  ltr,
  previewPlan,
  toFields,
  type ResizeSettings,
} from './resize-settings';

const tool = toolById('resize');

type Size = { width: number; height: number };

/**
 * The image's size as shown (browsers apply the EXIF orientation, as the server does); null
 * until read, and for formats the browser cannot show (the server still reads them).
 */
function useImageSize(file: File | null): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useEffect(() => {
    setSize(null);
    if (!file) return;
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => setSize({ width: image.naturalWidth, height: image.naturalHeight });
    image.src = url;
    return () => {
      image.onload = null;
      URL.revokeObjectURL(url);
    };
  }, [file]);
  return size;
}

const dimensions = (size: Size) => ltr(`${size.width} × ${size.height}`);

export function ResizePage() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [settings, setSettings] = useState<ResizeSettings>(DEFAULT_SETTINGS);
  const source = useImageSize(file);
  const plan = previewPlan(source, settings);
  const change = (patch: Partial<ResizeSettings>) => setSettings((s) => ({ ...s, ...patch }));

  // A new image starts at its own size, ready to be edited.
  useEffect(() => {
    if (source) setSettings((s) => ({ ...s, width: source.width, height: source.height }));
  }, [source]);

  const asked =
    settings.mode === 'pixels' && !settings.keepAspect && settings.width && settings.height
      ? { width: settings.width, height: settings.height }
      : null;

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/resize"
      submitLabel={t('resize.submit')}
      downloadOnDone
      failedMessage={t('resize.failed')}
      onFileChange={(next) => {
        setFile(next);
        setSettings((s) => ({ ...s, width: '', height: '' }));
      }}
      validate={() =>
        settings.mode === 'pixels' && settings.width === '' && settings.height === ''
          ? t('resize.needSize')
          : settings.mode === 'percentage' && settings.percentage === ''
            ? t('resize.needPercentage')
            : null
      }
      fields={(form) => {
        for (const [name, value] of Object.entries(toFields(settings)))
          if (value !== undefined) form.append(name, String(value));
      }}
      options={
        <>
          <ResizeOptions settings={settings} source={source} onChange={change} />
          <div aria-live="polite" data-testid="resize-plan">
            {file && plan && (
              <Text fw={600}>
                {t('resize.result', {
                  size: dimensions(plan),
                  aspect: aspectLabel(plan.width, plan.height),
                })}
              </Text>
            )}
            {file && plan?.limited && (
              <Group gap={6} wrap="nowrap" align="flex-start" mt={4}>
                <IconInfoCircle size={18} aria-hidden style={{ flexShrink: 0 }} />
                <Text size="sm">
                  {asked ? t('resize.limitedTo', { size: dimensions(asked) }) : t('resize.limited')}
                </Text>
              </Group>
            )}
            {file && !source && (
              <Text size="sm" c="dimmed">
                {t('resize.sizeUnknown')}
              </Text>
            )}
          </div>
        </>
      }
      resultDetails={(result) => {
        const [before, after] = ['x-original-dimensions', 'x-result-dimensions'].map((name) => {
          const value = result.headers(name);
          return value && ltr(value.replace('x', ' × '));
        });
        return before && after ? (
          <Text size="sm" fw={600}>
            {t('resize.dimensions', { before, after })}
          </Text>
        ) : null;
      }}
    />
  );
}
