import { ActionIcon, Box } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { blurSigma } from '@refract/contracts';
import { ARROW_STEPS, usePointerDrag } from '../../../components/tool/use-pointer-drag';
import type { BlurRect } from './blur-areas';
import type { HideSettings } from './blur-style';
import { PixelatedPatch } from './pixelated-patch';

/** Arrow keys move an area by this many preview pixels; with Shift they resize it. */
const KEY_STEP = 5;

/**
 * One blur area over the preview: drag it to move, drag its corner to resize, or use the
 * arrow keys (Shift to resize, Delete to remove). It hides what is behind it as the download
 * will: the same sigma (a CSS blur's radius is its standard deviation), blocks or colour.
 */
export function BlurAreaBox(props: {
  area: BlurRect;
  index: number;
  /** Preview pixels per source pixel. */
  scale: number;
  settings: HideSettings;
  /** The preview's image, once loaded: the pixelated patch is drawn from it. */
  image: HTMLImageElement | null;
  onChange(area: BlurRect): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const { area, scale, settings } = props;
  const drag = usePointerDrag<BlurRect, 'move' | 'resize'>(({ mode, start, dx, dy }) =>
    props.onChange(
      mode === 'move'
        ? { ...start, x: start.x + dx / scale, y: start.y + dy / scale }
        : { ...start, width: start.width + dx / scale, height: start.height + dy / scale },
    ),
  );
  const blur =
    settings.style === 'blur'
      ? `blur(${blurSigma({ width: Math.round(area.width), height: Math.round(area.height) }, settings.strength) * scale}px)`
      : undefined;

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      return props.onRemove();
    }
    const direction = ARROW_STEPS[event.key];
    if (!direction) return;
    event.preventDefault();
    const [dx, dy] = direction.map((d) => (d * KEY_STEP) / scale) as [number, number];
    props.onChange(
      event.shiftKey
        ? { ...area, width: area.width + dx, height: area.height + dy }
        : { ...area, x: area.x + dx, y: area.y + dy },
    );
  }

  return (
    <Box
      role="group"
      tabIndex={0}
      aria-label={t('blurFace.areaLabel', { number: props.index + 1 })}
      data-testid="blur-area"
      data-style={settings.style}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => drag.begin(event, 'move', area)}
      {...drag.handlers}
      pos="absolute"
      left={area.x * scale}
      top={area.y * scale}
      w={area.width * scale}
      h={area.height * scale}
      style={{
        border: '2px solid var(--mantine-color-blue-5)',
        borderRadius: 4,
        backdropFilter: blur,
        WebkitBackdropFilter: blur,
        background: settings.style === 'box' ? settings.color : undefined,
        cursor: 'move',
        touchAction: 'none',
        outlineOffset: 2,
      }}
    >
      {settings.style === 'pixelate' && props.image && (
        <PixelatedPatch
          image={props.image}
          area={area}
          strength={settings.strength}
          scale={scale}
        />
      )}
      <ActionIcon
        size="sm"
        color="red"
        variant="filled"
        radius="xl"
        pos="absolute"
        top={-10}
        right={-10}
        aria-label={t('blurFace.remove', { number: props.index + 1 })}
        onPointerDown={(event) => event.stopPropagation()}
        onClick={props.onRemove}
      >
        <IconX size={14} />
      </ActionIcon>
      <Box
        aria-hidden
        pos="absolute"
        right={-6}
        bottom={-6}
        w={14}
        h={14}
        bg="blue.5"
        style={{ borderRadius: 3, cursor: 'nwse-resize', touchAction: 'none' }}
        data-testid="blur-area-resize"
        // Its moves bubble to the area's handlers.
        onPointerDown={(event) => drag.begin(event, 'resize', area)}
      />
    </Box>
  );
}
