import { Checkbox, Group, NumberInput, Slider, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pngPaletteColours, toolById } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';
import { useObjectUrl } from '../../../components/tool/use-object-url';
import { formatNumber } from '../../../lib/format';
import { CompressComparison } from './compress-comparison';
import { CompressTarget, targetBytes, type TargetSize } from './compress-target';
import { FormatNote } from './format-note';

const tool = toolById('compress');

const isPng = (file: File | null) =>
  file !== null && (file.type === 'image/png' || /\.png$/i.test(file.name));

export function CompressPage() {
  const { t } = useTranslation();
  const [quality, setQuality] = useState(80);
  const [width, setWidth] = useState<number | ''>('');
  const [height, setHeight] = useState<number | ''>('');
  // On by default: a PNG logo stays a PNG with its transparency (decision 016).
  const [keepFormat, setKeepFormat] = useState(true);
  const [target, setTarget] = useState<TargetSize>({ amount: '', unit: 'KB', allowResize: false });
  const [file, setFile] = useState<File | null>(null);
  const originalUrl = useObjectUrl(file);
  const pngHintId = useId();
  // A PNG kept as PNG: the slider picks a palette, not a lossy strength, and it is slower than a
  // plain PNG; said before running so neither the colours nor the wait surprise.
  const pngHint = keepFormat && isPng(file);
  return (
    <ToolPage
      tool={tool}
      endpoint="/api/compress"
      submitLabel={t('compress.submit')}
      onFileChange={setFile}
      resultDetails={(result) =>
        originalUrl && (
          <CompressComparison
            originalUrl={originalUrl}
            resultUrl={result.url}
            before={Number(result.headers('x-original-size') ?? file?.size ?? 0)}
            after={result.size}
            quality={Number(result.headers('x-compress-quality') ?? 0) || undefined}
            dimensions={result.headers('x-compress-dimensions') ?? undefined}
          />
        )
      }
      fields={(form) => {
        form.append('quality', String(quality));
        if (width !== '') form.append('width', String(width));
        if (height !== '') form.append('height', String(height));
        form.append('keepFormat', String(keepFormat));
        const bytes = targetBytes(target);
        if (bytes !== undefined) {
          form.append('targetBytes', String(bytes));
          form.append('allowResize', String(target.allowResize));
        }
      }}
      options={
        <>
          <div>
            <Text size="sm" fw={500} aria-hidden>
              {t('compress.quality', { quality })}
            </Text>
            <Slider
              min={1}
              max={100}
              value={quality}
              onChange={setQuality}
              thumbLabel={t('compress.quality', { quality })}
              thumbProps={pngHint ? { 'aria-describedby': pngHintId } : undefined}
              mt="xs"
            />
            {pngHint && (
              <Text id={pngHintId} size="xs" c="dimmed" mt="sm">
                {t('compress.pngHint', { colours: formatNumber(pngPaletteColours(quality)) })}
              </Text>
            )}
          </div>
          <Group grow>
            <NumberInput
              label={t('compress.width')}
              min={1}
              max={16384}
              allowDecimal={false}
              value={width}
              onChange={(v) => setWidth(v === '' ? '' : Number(v))}
              placeholder={t('compress.auto')}
            />
            <NumberInput
              label={t('compress.height')}
              min={1}
              max={16384}
              allowDecimal={false}
              value={height}
              onChange={(v) => setHeight(v === '' ? '' : Number(v))}
              placeholder={t('compress.auto')}
            />
          </Group>
          <Text size="xs" c="dimmed">
            {t('compress.sizeHint')}
          </Text>
          <Checkbox
            label={t('compress.keepFormat')}
            checked={keepFormat}
            onChange={(e) => setKeepFormat(e.currentTarget.checked)}
          />
          <FormatNote file={file} keepFormat={keepFormat} />
          <CompressTarget value={target} onChange={setTarget} />
        </>
      }
    />
  );
}
