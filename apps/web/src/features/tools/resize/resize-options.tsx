import {
  Button,
  ColorInput,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  MAX_RESIZE_PERCENTAGE,
  MAX_RESIZE_SIDE,
  RESIZE_FITS,
  RESIZE_PRESETS,
  type ResizeFit,
} from '@refract/contracts';
import { follow, ltr, type ResizeSettings } from './resize-settings';
import { LabelledChoice } from '../../../components/tool/labelled-choice';

interface Props {
  settings: ResizeSettings;
  source: { width: number; height: number } | null;
  onChange(patch: Partial<ResizeSettings>): void;
}

const toNumber = (value: string | number): number | '' => (value === '' ? '' : Number(value));

/** Mode, sizes with the aspect lock, presets, fit and enlarging: every choice the server reads. */
export function ResizeOptions({ settings, source, onChange }: Props) {
  const { t } = useTranslation();
  const pixels = settings.mode === 'pixels';
  const exact = pixels && !settings.keepAspect;

  // With the lock on, the other side follows the image's own shape.
  function setSide(side: 'width' | 'height', value: number | '') {
    const other = side === 'width' ? 'height' : 'width';
    if (!settings.keepAspect || !source || value === '')
      return onChange({ [side]: value } as Partial<ResizeSettings>);
    onChange({ [side]: value, [other]: follow(value, source[side], source[other]) });
  }

  function setKeepAspect(keepAspect: boolean) {
    if (keepAspect && source && settings.width !== '')
      return onChange({
        keepAspect,
        height: follow(settings.width, source.width, source.height),
      });
    onChange({ keepAspect });
  }

  return (
    <Stack gap="md">
      <LabelledChoice
        label={t('resize.mode')}
        value={settings.mode}
        onChange={(mode) => onChange({ mode })}
        data={[
          { value: 'pixels', label: t('resize.pixels') },
          { value: 'percentage', label: t('resize.percentage') },
        ]}
      />

      {pixels ? (
        <>
          <div>
            <Text size="sm" fw={500} id="resize-presets-label">
              {t('resize.presets')}
            </Text>
            <Group gap="xs" mt={4} role="group" aria-labelledby="resize-presets-label">
              {RESIZE_PRESETS.map((preset) => {
                const active =
                  exact && settings.width === preset.width && settings.height === preset.height;
                return (
                  <Button
                    key={preset.id}
                    size="xs"
                    variant={active ? 'filled' : 'light'}
                    aria-pressed={active}
                    onClick={() =>
                      onChange({ width: preset.width, height: preset.height, keepAspect: false })
                    }
                  >
                    {t(`resize.preset.${preset.id}`)} · {ltr(`${preset.width}×${preset.height}`)}
                  </Button>
                );
              })}
            </Group>
          </div>
          <SimpleGrid cols={2} spacing="sm">
            <NumberInput
              label={t('resize.width')}
              min={1}
              max={MAX_RESIZE_SIDE}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="strict"
              value={settings.width}
              onChange={(value) => setSide('width', toNumber(value))}
            />
            <NumberInput
              label={t('resize.height')}
              min={1}
              max={MAX_RESIZE_SIDE}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="strict"
              value={settings.height}
              onChange={(value) => setSide('height', toNumber(value))}
            />
          </SimpleGrid>
          <Switch
            label={t('resize.keepAspect')}
            description={t(settings.keepAspect ? 'resize.keepAspectOn' : 'resize.keepAspectOff')}
            checked={settings.keepAspect}
            onChange={(event) => setKeepAspect(event.currentTarget.checked)}
          />
          {exact && (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Select
                label={t('resize.fit')}
                value={settings.fit}
                allowDeselect={false}
                onChange={(fit) => fit && onChange({ fit: fit as ResizeFit })}
                data={RESIZE_FITS.map((fit) => ({ value: fit, label: t(`resize.fits.${fit}`) }))}
              />
              {settings.fit === 'contain' && (
                <ColorInput
                  label={t('resize.background')}
                  format="hex"
                  // A colour code reads left to right in Arabic too (#ffffff, not ffffff#), while
                  // the field keeps the page's side for its swatch.
                  styles={{ input: { unicodeBidi: 'plaintext' } }}
                  // Its eye-dropper button has no name to give a screen reader; swatches suffice.
                  withEyeDropper={false}
                  value={settings.background}
                  onChange={(background) => onChange({ background })}
                  onBlur={() =>
                    /^#[0-9a-f]{6}$/i.test(settings.background) ||
                    onChange({ background: '#ffffff' })
                  }
                  swatches={['#ffffff', '#000000', '#f1f3f5', '#1c7ed6']}
                />
              )}
            </SimpleGrid>
          )}
        </>
      ) : (
        <NumberInput
          label={t('resize.percent')}
          min={1}
          max={MAX_RESIZE_PERCENTAGE}
          allowNegative={false}
          decimalScale={1}
          suffix=" %"
          value={settings.percentage}
          onChange={(value) => onChange({ percentage: toNumber(value) })}
        />
      )}

      <Switch
        label={t('resize.allowEnlarge')}
        description={t('resize.allowEnlargeHint')}
        checked={settings.allowEnlarge}
        onChange={(event) => onChange({ allowEnlarge: event.currentTarget.checked })}
      />
    </Stack>
  );
}
