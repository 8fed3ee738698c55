import { Slider, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { usePerFile } from '../../../components/tool/batch/use-per-file';
import { ToolPage } from '../../../components/tool/tool-page';
import { WatermarkPreview, type WatermarkSettings } from './watermark-preview';

const tool = toolById('watermark');

/** Spec section 9: centred, opacity 0.5, scale 1, no rotation. */
const DEFAULTS = { opacity: 0.5, scale: 1, rotation: 0 };
/** The text's centre, as fractions of the image: the one setting each file of a batch may have. */
const CENTRE = { x: 0.5, y: 0.5 };
const positionFields = ({ x, y }: typeof CENTRE) => ({ x: String(x), y: String(y) });
/** The brand mark, the same in every language: short enough to fit a phone-sized preview. */
const DEFAULT_TEXT = '© Refract';

function LabelledSlider(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange(value: number): void;
}) {
  return (
    <div>
      <Text size="sm" fw={500} aria-hidden>
        {props.label}
      </Text>
      <Slider
        min={props.min}
        max={props.max}
        step={props.step}
        value={props.value}
        onChange={props.onChange}
        thumbLabel={props.label}
      />
    </div>
  );
}

/** The text is placed on a live preview; the server draws it the same way at full size. */
export function WatermarkPage() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<Omit<WatermarkSettings, 'x' | 'y'>>({
    text: DEFAULT_TEXT,
    ...DEFAULTS,
  });
  const positions = usePerFile(CENTRE);
  const [previewWidth, setPreviewWidth] = useState<number | null>(null);
  const set = (changes: Partial<WatermarkSettings>) => setSettings((s) => ({ ...s, ...changes }));

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/watermark"
      submitLabel={t('watermark.submit')}
      downloadOnDone
      failedMessage={t('watermark.failed')}
      showSizes={false}
      onFileChange={positions.reset}
      fields={(form) => {
        form.append('text', settings.text);
        for (const key of ['opacity', 'scale', 'rotation'] as const)
          form.append(key, String(settings[key]));
        for (const [name, value] of Object.entries(positionFields(positions.get(0))))
          form.append(name, value);
        if (previewWidth) form.append('previewWidth', String(previewWidth));
      }}
      perFile={{
        files: positions,
        fields: (index) => (positions.hasOwn(index) ? positionFields(positions.get(index)) : null),
      }}
      editor={({ url, index }) => (
        <WatermarkPreview
          url={url}
          settings={{ ...settings, ...positions.get(index) }}
          onMove={(x, y) => positions.update(index, () => ({ x, y }))}
          onPreviewWidth={setPreviewWidth}
        />
      )}
      options={
        <Stack gap="sm">
          <TextInput
            label={t('watermark.text')}
            value={settings.text}
            maxLength={200}
            dir="auto"
            onChange={(event) => set({ text: event.currentTarget.value })}
          />
          <Text size="sm" c="dimmed">
            {t('watermark.hint')}
          </Text>
          <LabelledSlider
            label={t('watermark.opacity', { value: Math.round(settings.opacity * 100) })}
            value={settings.opacity}
            min={0}
            max={1}
            step={0.05}
            onChange={(opacity) => set({ opacity })}
          />
          <LabelledSlider
            label={t('watermark.scale', { value: settings.scale.toFixed(1) })}
            value={settings.scale}
            min={0.5}
            max={3}
            step={0.1}
            onChange={(scale) => set({ scale })}
          />
          <LabelledSlider
            label={t('watermark.rotation', { value: settings.rotation })}
            value={settings.rotation}
            min={-180}
            max={180}
            step={1}
            onChange={(rotation) => set({ rotation })}
          />
        </Stack>
      }
    />
  );
}
