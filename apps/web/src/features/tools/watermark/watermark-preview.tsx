import { Box, Image } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WATERMARK_BASE_FONT_PX } from '@refract/contracts';

export interface WatermarkSettings {
  text: string;
  opacity: number;
  scale: number;
  rotation: number;
  /** Centre of the text as fractions of the image's width and height. */
  x: number;
  y: number;
}

/** Arrow keys move the text by 1% of the image (10% with Shift). */
const KEY_STEP = 0.01;
const KEYS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/**
 * The image with the text on it as the server will draw it: 40 px × scale of the preview's
 * width, white with a dark outline, cut off at the image's edges. The text is dragged with a pointer or moved with arrow keys.
 */
export function WatermarkPreview(props: {
  url: string;
  settings: WatermarkSettings;
  onMove(x: number, y: number): void;
  /** Told the width the image is shown at, which the server scales the font by. */
  onPreviewWidth(width: number): void;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const size = useElementSize();
  const frameRef = useMergedRef(frame, size.ref);
  const { settings, onPreviewWidth } = props;
  // The frame is as wide as the image is shown; it changes with the window.
  useEffect(() => {
    if (size.width > 0) onPreviewWidth(Math.round(size.width));
  }, [size.width, onPreviewWidth]);

  function moveTo(event: PointerEvent) {
    const box = frame.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    props.onMove(
      clamp01((event.clientX - box.left) / box.width),
      clamp01((event.clientY - box.top) / box.height),
    );
  }

  function onKeyDown(event: KeyboardEvent) {
    const direction = KEYS[event.key];
    if (!direction) return;
    event.preventDefault();
    const step = event.shiftKey ? KEY_STEP * 10 : KEY_STEP;
    props.onMove(
      clamp01(settings.x + direction[0] * step),
      clamp01(settings.y + direction[1] * step),
    );
  }

  return (
    <Box
      ref={frameRef}
      pos="relative"
      mx="auto"
      w="fit-content"
      maw="100%"
      // Text past the edges is cut off, as it is in the server's result.
      style={{ lineHeight: 0, overflow: 'hidden' }}
    >
      <Image
        src={props.url}
        alt={t('tool.preview')}
        maw="100%"
        mah={480}
        w="auto"
        style={{ userSelect: 'none' }}
        draggable={false}
      />
      <Box
        role="slider"
        tabIndex={0}
        aria-label={t('watermark.positionLabel')}
        aria-valuetext={t('watermark.position', {
          x: Math.round(settings.x * 100),
          y: Math.round(settings.y * 100),
        })}
        aria-valuenow={Math.round(settings.x * 100)}
        onKeyDown={onKeyDown}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          event.currentTarget.focus();
        }}
        onPointerMove={(event) => {
          if (event.currentTarget.hasPointerCapture(event.pointerId)) moveTo(event);
        }}
        pos="absolute"
        left={`${settings.x * 100}%`}
        top={`${settings.y * 100}%`}
        data-testid="watermark-text"
        // Pango takes each paragraph's direction from its first strong character; so does this
        // ("© Refract" stays "© Refract" on an Arabic page).
        dir="auto"
        style={{
          transform: `translate(-50%, -50%) rotate(${settings.rotation}deg)`,
          fontSize: WATERMARK_BASE_FONT_PX * settings.scale,
          lineHeight: 1.3,
          opacity: settings.opacity,
          color: '#fff',
          WebkitTextStroke: `${(WATERMARK_BASE_FONT_PX * settings.scale) / 20}px #000`,
          paintOrder: 'stroke fill',
          whiteSpace: 'pre',
          unicodeBidi: 'plaintext',
          cursor: 'move',
          touchAction: 'none',
          userSelect: 'none',
          fontFamily: "'Noto Sans', sans-serif",
          outlineOffset: 4,
        }}
      >
        {settings.text || ' '}
      </Box>
    </Box>
  );
}
