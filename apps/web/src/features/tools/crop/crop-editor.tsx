import { ActionIcon, Button, Group, NumberInput, Select, Slider, Text } from '@mantine/core';
import {
  IconArrowsExchange,
  IconFlipHorizontal,
  IconFlipVertical,
  IconRotate,
  IconRotateClockwise,
} from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useImageElement } from '../../../components/tool/use-image-element';
import { formatNumber } from '../../../lib/format';
import { CropFrame } from './crop-frame';
import {
  MAX_ZOOM,
  RATIOS,
  centreOf,
  frameAt,
  inside,
  turned,
  zoomOf,
  type Frame,
  type Size,
} from './crop-geometry';
import { frameOn, ratioOf, type CropSettings } from './crop-settings';

/**
 * The crop editor for one file: the frame over the image, its aspect ratio (portrait or
 * landscape), the image turned and mirrored, the zoom, and the frame's exact pixels, every
 * control bound both ways to the frame. `onSize` tells the page the image's size.
 */
export function CropEditor(props: {
  url: string;
  settings: CropSettings;
  onChange(change: (settings: CropSettings) => CropSettings): void;
  onSize(size: Size): void;
}) {
  const { t } = useTranslation();
  const image = useImageElement(props.url);
  const { onSize } = props;
  const size = image && { width: image.naturalWidth, height: image.naturalHeight };
  useEffect(() => {
    if (size) onSize(size);
    // Told once per size (the callback is new on every render of the page).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [size?.width, size?.height]);
  if (!image || !size) return null;

  const { settings, onChange } = props;
  const view = turned(size, settings.turn);
  const frame = frameOn(settings, size);
  const ratio = ratioOf(settings, view);
  const zoom = zoomOf(frame, view);
  const setFrame = (next: Frame) => onChange((s) => ({ ...s, frame: next, view }));
  /** A change of shape: the frame takes it around its centre, as near as it was. */
  const reshape = (change: Partial<CropSettings>) =>
    onChange((s) => {
      const next = { ...s, ...change };
      const nextView = turned(size, next.turn);
      const refit = frameAt(nextView, ratioOf(next, nextView), zoom, centreOf(frame, view));
      return { ...next, frame: refit, view: nextView };
    });
  const field = (name: keyof Frame) => (value: string | number) => {
    const number = Number(value);
    if (!Number.isFinite(number)) return;
    const next = { ...frame, [name]: number };
    // A fixed ratio follows the side typed.
    if (ratio !== null && name === 'width') next.height = number / ratio;
    if (ratio !== null && name === 'height') next.width = number * ratio;
    setFrame(inside(next, view));
  };
  const swappable = !['free', 'original', '1:1'].includes(settings.ratio);

  return (
    <>
      <CropFrame
        image={image}
        view={view}
        turn={settings.turn}
        flipHorizontal={settings.flipHorizontal}
        flipVertical={settings.flipVertical}
        frame={frame}
        ratio={ratio}
        onFrame={setFrame}
      />
      <Text size="sm" c="dimmed">
        {t('crop.hint')}
      </Text>
      <Group gap="xs" align="end" wrap="wrap">
        <Select
          label={t('crop.ratio')}
          data={RATIOS.map((id) => ({
            value: id,
            label: ['free', 'original', 'custom'].includes(id) ? t(`crop.ratios.${id}`) : id,
          }))}
          value={settings.ratio}
          onChange={(value) => value && reshape({ ratio: value })}
          allowDeselect={false}
          w={150}
        />
        {settings.ratio === 'custom' && (
          <>
            <NumberInput
              label={t('crop.customWidth')}
              min={1}
              max={100}
              value={settings.custom.width}
              onChange={(v) =>
                Number(v) > 0 && reshape({ custom: { ...settings.custom, width: Number(v) } })
              }
              w={90}
            />
            <NumberInput
              label={t('crop.customHeight')}
              min={1}
              max={100}
              value={settings.custom.height}
              onChange={(v) =>
                Number(v) > 0 && reshape({ custom: { ...settings.custom, height: Number(v) } })
              }
              w={90}
            />
          </>
        )}
        <ActionIcon
          size={36}
          variant="light"
          disabled={!swappable}
          aria-label={t(ratio !== null && ratio < 1 ? 'crop.toLandscape' : 'crop.toPortrait')}
          title={t(ratio !== null && ratio < 1 ? 'crop.toLandscape' : 'crop.toPortrait')}
          onClick={() => reshape({ swapped: !settings.swapped })}
        >
          <IconArrowsExchange size={20} />
        </ActionIcon>
      </Group>
      <Group gap="xs" wrap="wrap">
        <Button
          variant="light"
          leftSection={<IconRotate size={18} />}
          onClick={() => reshape({ turn: ((settings.turn + 270) % 360) as CropSettings['turn'] })}
        >
          {t('crop.turnLeft')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconRotateClockwise size={18} />}
          onClick={() => reshape({ turn: ((settings.turn + 90) % 360) as CropSettings['turn'] })}
        >
          {t('crop.turnRight')}
        </Button>
        <Button
          variant={settings.flipHorizontal ? 'filled' : 'light'}
          aria-pressed={settings.flipHorizontal}
          leftSection={<IconFlipVertical size={18} />}
          onClick={() => reshape({ flipHorizontal: !settings.flipHorizontal })}
        >
          {t('crop.flipHorizontal')}
        </Button>
        <Button
          variant={settings.flipVertical ? 'filled' : 'light'}
          aria-pressed={settings.flipVertical}
          leftSection={<IconFlipHorizontal size={18} />}
          onClick={() => reshape({ flipVertical: !settings.flipVertical })}
        >
          {t('crop.flipVertical')}
        </Button>
      </Group>
      <div>
        <Text size="sm" fw={500} aria-hidden>
          {t('crop.zoom', { zoom: zoom.toFixed(1) })}
        </Text>
        <Slider
          min={1}
          max={MAX_ZOOM}
          step={0.1}
          value={Math.min(MAX_ZOOM, Math.round(zoom * 10) / 10)}
          onChange={(value) =>
            setFrame(frameAt(view, frame.width / frame.height, value, centreOf(frame, view)))
          }
          label={(value) => `${value.toFixed(1)}×`}
          thumbLabel={t('crop.zoom', { zoom: zoom.toFixed(1) })}
        />
      </div>
      <Group gap="xs" wrap="wrap">
        {(['x', 'y', 'width', 'height'] as const).map((name) => (
          <NumberInput
            key={name}
            label={t(`crop.field.${name}`)}
            min={name === 'x' || name === 'y' ? 0 : 1}
            max={name === 'x' || name === 'width' ? view.width : view.height}
            value={frame[name]}
            onChange={field(name)}
            allowDecimal={false}
            w={100}
          />
        ))}
      </Group>
      <Text size="sm" fw={500} data-testid="crop-result" aria-live="polite">
        {t('crop.result', {
          width: formatNumber(frame.width),
          height: formatNumber(frame.height),
        })}
      </Text>
    </>
  );
}
