import { ColorInput, FileInput, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_WATERMARK_TEXT, toolById } from '@refract/contracts';
import { usePerFile } from '../../../components/tool/batch/use-per-file';
import { ToolPage } from '../../../components/tool/tool-page';
import { AnchorGrid } from './anchor-grid';
import { WatermarkPreview, type LogoImage } from './watermark-preview';
import { DEFAULT_SETTINGS, type WatermarkSettings } from './watermark-settings';
import { LabelledChoice } from '../../../components/tool/labelled-choice';
import { LabelledSlider } from '../../../components/tool/labelled-slider';

const tool = toolById('watermark');

/** The mark's centre, as fractions of the image: the one setting each file of a batch may have. */
const CENTRE = { x: 0.5, y: 0.5 };
const positionFields = ({ x, y }: typeof CENTRE) => ({ x: String(x), y: String(y) });
/** What the page sends besides the position and the logo (the server's own field names). */
const SENT = [
  'mark',
  'color',
  'font',
  'opacity',
  'size',
  'rotation',
  'position',
  'margin',
  'gap',
] as const;

/** A chosen logo file as an object URL with its natural size, released when it changes. */
function useLogo(file: File | null): LogoImage | null {
  const [logo, setLogo] = useState<LogoImage | null>(null);
  useEffect(() => {
    setLogo(null);
    if (!file) return;
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => setLogo({ url, width: image.naturalWidth, height: image.naturalHeight });
    image.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return logo;
}

/** Text or a logo, placed, anchored or tiled on a live preview; the server draws it the same way. */
export function WatermarkPage() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState(DEFAULT_SETTINGS);
  const [logoFile, setLogoFile] = useState<File | null>(null);
  const logo = useLogo(logoFile);
  const positions = usePerFile(CENTRE);
  const set = (changes: Partial<WatermarkSettings>) => setSettings((s) => ({ ...s, ...changes }));
  const tiled = settings.position === 'tiled';
  const percent = (value: number) => Math.round(value * 100);

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
        for (const key of SENT) form.append(key, String(settings[key]));
        if (settings.mark === 'text') form.append('text', settings.text);
        if (settings.mark === 'logo' && logoFile) form.append('logo', logoFile);
        for (const [name, value] of Object.entries(positionFields(positions.get(0))))
          form.append(name, value);
      }}
      perFile={{
        files: positions,
        fields: (index) => (positions.hasOwn(index) ? positionFields(positions.get(index)) : null),
      }}
      editor={({ url, index }) => (
        <WatermarkPreview
          url={url}
          settings={{ ...settings, ...positions.get(index) }}
          logo={logo}
          onMove={(x, y) => {
            // A dragged mark leaves its anchor.
            if (settings.position !== 'custom') set({ position: 'custom' });
            positions.update(index, () => ({ x, y }));
          }}
        />
      )}
      options={
        <Stack gap="sm">
          <LabelledChoice
            label={t('watermark.markLabel')}
            value={settings.mark}
            onChange={(mark) => set({ mark })}
            data={[
              { value: 'text', label: t('watermark.markText') },
              { value: 'logo', label: t('watermark.markLogo') },
            ]}
          />
          {settings.mark === 'text' ? (
            <>
              <TextInput
                label={t('watermark.text')}
                value={settings.text}
                maxLength={MAX_WATERMARK_TEXT}
                dir="auto"
                onChange={(event) => set({ text: event.currentTarget.value })}
              />
              <Group grow align="flex-end" wrap="wrap">
                <ColorInput
                  label={t('watermark.color')}
                  format="hex"
                  // A hex code reads left to right on an Arabic page too (the swatch keeps its side).
                  styles={{ input: { unicodeBidi: 'plaintext' } }}
                  // Its eye-dropper button has no name of its own for a screen reader.
                  withEyeDropper={false}
                  value={settings.color}
                  onChange={(color) => /^#[0-9a-f]{6}$/i.test(color) && set({ color })}
                  miw={140}
                />
                <LabelledChoice
                  label={t('watermark.font')}
                  value={settings.font}
                  onChange={(font) => set({ font })}
                  data={[
                    { value: 'sans', label: t('watermark.fontSans') },
                    { value: 'condensed', label: t('watermark.fontCondensed') },
                  ]}
                />
              </Group>
            </>
          ) : (
            <FileInput
              label={t('watermark.logo')}
              description={t('watermark.logoHint')}
              placeholder={t('watermark.logoPlaceholder')}
              // Mantine's placeholder grey is too faint on white for WCAG AA.
              styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
              accept="image/png,image/jpeg,image/webp"
              value={logoFile}
              onChange={setLogoFile}
              clearable
            />
          )}
          <LabelledChoice
            label={t('watermark.layoutLabel')}
            value={tiled ? 'tiled' : 'single'}
            onChange={(layout) => set({ position: layout === 'tiled' ? 'tiled' : 'custom' })}
            data={[
              { value: 'single', label: t('watermark.single') },
              { value: 'tiled', label: t('watermark.tiled') },
            ]}
          />
          {tiled ? (
            <LabelledSlider
              valueBubble={false}
              label={t('watermark.gap', { value: percent(settings.gap) })}
              value={settings.gap}
              min={0}
              max={3}
              step={0.1}
              onChange={(gap) => set({ gap })}
            />
          ) : (
            <Group align="center" wrap="nowrap" gap="md">
              <AnchorGrid value={settings.position} onChange={(position) => set({ position })} />
              <Stack gap={4} style={{ flex: 1 }}>
                <Text size="sm" c="dimmed">
                  {t('watermark.hint')}
                </Text>
                <LabelledSlider
                  valueBubble={false}
                  label={t('watermark.margin', { value: percent(settings.margin) })}
                  value={settings.margin}
                  min={0}
                  max={0.25}
                  step={0.01}
                  onChange={(margin) => set({ margin })}
                />
              </Stack>
            </Group>
          )}
          <LabelledSlider
            valueBubble={false}
            label={t('watermark.size', { value: percent(settings.size) })}
            value={settings.size}
            min={0.05}
            max={1}
            step={0.01}
            onChange={(size) => set({ size })}
          />
          <LabelledSlider
            valueBubble={false}
            label={t('watermark.opacity', { value: percent(settings.opacity) })}
            value={settings.opacity}
            min={0}
            max={1}
            step={0.05}
            onChange={(opacity) => set({ opacity })}
          />
          <LabelledSlider
            valueBubble={false}
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
