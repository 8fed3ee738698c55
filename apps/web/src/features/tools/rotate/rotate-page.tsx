import { Button, ColorInput, Group, NumberInput, Slider, Stack, Switch, Text } from '@mantine/core';
import {
  IconFlipHorizontal,
  IconFlipVertical,
  IconRotate,
  IconRotateClockwise,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';
import { RotatePreview } from './rotate-preview';
import { INITIAL_ROTATE, rotateFields, wrapAngle, type RotateSettings } from './rotate-settings';
import { LabelledChoice } from '../../../components/tool/labelled-choice';

const tool = toolById('rotate');
/** Formats whose files keep transparency as the server writes them (the input's own format). */
const HAS_ALPHA = /^image\/(png|webp|gif|avif|tiff|svg\+xml)$/;

/** The preview is drawn in the browser from the values the server renders the download from. */
export function RotatePage() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState(INITIAL_ROTATE);
  const [fileType, setFileType] = useState('');
  const set = (change: Partial<RotateSettings>) => setSettings((s) => ({ ...s, ...change }));
  const turnBy = (degrees: number) => set({ angle: wrapAngle(settings.angle + degrees) });
  const quarter = settings.angle % 90 === 0;

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/rotate"
      submitLabel={t('rotate.submit')}
      downloadOnDone
      onFileChange={(file) => {
        setSettings(INITIAL_ROTATE);
        setFileType(file?.type ?? '');
      }}
      fields={(form) => {
        for (const [name, value] of Object.entries(rotateFields(settings)))
          form.append(name, value);
      }}
      editor={({ url }) => <RotatePreview url={url} settings={settings} />}
      options={
        <Stack gap="sm">
          <Group justify="center" gap="xs">
            <Button
              variant="light"
              leftSection={<IconRotate size={18} />}
              onClick={() => turnBy(-90)}
            >
              {t('rotate.left')}
            </Button>
            <Button
              variant="light"
              rightSection={<IconRotateClockwise size={18} />}
              onClick={() => turnBy(90)}
            >
              {t('rotate.right')}
            </Button>
          </Group>
          <Group align="end" gap="sm" wrap="nowrap">
            <Slider
              style={{ flex: 1 }}
              mb={8}
              min={-180}
              max={180}
              step={1}
              value={Math.round(settings.angle)}
              onChange={(angle) => set({ angle })}
              label={(value) => `${value}°`}
              thumbLabel={t('rotate.angleSlider')}
              marks={[{ value: -90 }, { value: 0 }, { value: 90 }]}
            />
            <NumberInput
              label={t('rotate.angle')}
              min={-180}
              max={180}
              step={1}
              decimalScale={1}
              clampBehavior="strict"
              value={settings.angle}
              onChange={(value) => Number.isFinite(Number(value)) && set({ angle: Number(value) })}
              w={110}
              // A signed number reads left to right, or Arabic shows "-20" as "20-".
              dir="ltr"
            />
          </Group>
          <Group gap="xs">
            <Button
              variant={settings.flipHorizontal ? 'filled' : 'light'}
              aria-pressed={settings.flipHorizontal}
              leftSection={<IconFlipVertical size={18} />}
              onClick={() => set({ flipHorizontal: !settings.flipHorizontal })}
            >
              {t('rotate.flipHorizontal')}
            </Button>
            <Button
              variant={settings.flipVertical ? 'filled' : 'light'}
              aria-pressed={settings.flipVertical}
              leftSection={<IconFlipHorizontal size={18} />}
              onClick={() => set({ flipVertical: !settings.flipVertical })}
            >
              {t('rotate.flipVertical')}
            </Button>
          </Group>
          <LabelledChoice
            label={t('rotate.corners')}
            value={settings.corners}
            onChange={(corners) => set({ corners })}
            data={[
              { value: 'fill', label: t('rotate.cornersFill') },
              { value: 'crop', label: t('rotate.cornersCrop') },
            ]}
          />
          {settings.corners === 'fill' && (
            <Group align="end" gap="sm">
              <Switch
                label={t('rotate.transparent')}
                checked={settings.background === 'transparent'}
                onChange={(event) =>
                  set({ background: event.currentTarget.checked ? 'transparent' : '#ffffff' })
                }
              />
              {settings.background !== 'transparent' && (
                <ColorInput
                  label={t('rotate.background')}
                  format="hex"
                  value={settings.background}
                  onChange={(background) =>
                    /^#[0-9a-f]{6}$/i.test(background) && set({ background })
                  }
                  w={160}
                />
              )}
            </Group>
          )}
          {settings.corners === 'fill' &&
            settings.background === 'transparent' &&
            !quarter &&
            fileType &&
            !HAS_ALPHA.test(fileType) && (
              <Text size="sm" c="dimmed">
                {t('rotate.noTransparency')}
              </Text>
            )}
        </Stack>
      }
    />
  );
}
