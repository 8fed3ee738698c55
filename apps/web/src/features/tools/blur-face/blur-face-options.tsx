import { ColorInput, Group, Slider, Stack, Switch, Text } from '@mantine/core';
import { BLUR_STRENGTH, BLUR_STYLES } from '@refract/contracts';
import { useTranslation } from 'react-i18next';
import type { HideSettings } from './blur-style';
import { LabelledChoice } from '../../../components/tool/labelled-choice';

/** Style, strength, box colour, and "blur all faces" (the server finds them in each file). */
export function BlurFaceOptions(props: {
  settings: HideSettings;
  onChange(change: Partial<HideSettings>): void;
}) {
  const { t } = useTranslation();
  const { settings } = props;
  return (
    <Stack gap="sm">
      <Switch
        label={t('blurFace.detectAll')}
        description={t('blurFace.detectAllHint')}
        checked={settings.detectAll}
        onChange={(event) => props.onChange({ detectAll: event.currentTarget.checked })}
      />
      <LabelledChoice
        label={t('blurFace.style')}
        value={settings.style}
        onChange={(style) => props.onChange({ style })}
        data={BLUR_STYLES.map((style) => ({
          value: style,
          label: t(`blurFace.styles.${style}`),
        }))}
      />
      {settings.style === 'box' ? (
        <ColorInput
          label={t('blurFace.color')}
          format="hex"
          value={settings.color}
          onChange={(color) => /^#[0-9a-f]{6}$/i.test(color) && props.onChange({ color })}
          w={160}
        />
      ) : (
        <div>
          <Text size="sm" fw={500} id="blur-strength">
            {t('blurFace.strength')}
          </Text>
          <Group gap="sm" wrap="nowrap">
            <Slider
              style={{ flex: 1 }}
              min={BLUR_STRENGTH.min}
              max={BLUR_STRENGTH.max}
              step={1}
              value={settings.strength}
              onChange={(strength) => props.onChange({ strength })}
              thumbLabel={t('blurFace.strength')}
              marks={[
                { value: BLUR_STRENGTH.min },
                { value: BLUR_STRENGTH.default },
                { value: BLUR_STRENGTH.max },
              ]}
            />
            <Text size="sm" w={24} ta="end" data-testid="blur-strength-value">
              {settings.strength}
            </Text>
          </Group>
        </div>
      )}
    </Stack>
  );
}
