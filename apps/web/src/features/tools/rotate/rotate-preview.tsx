import { Box } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { largestUprightRect, turnedSize } from '@refract/contracts';
import { useImageElement } from '../../../components/tool/use-image-element';
import type { RotateSettings } from './rotate-settings';

/** The preview is drawn at most this wide or high. */
const MAX_DRAWN = 600;
/** A checkerboard behind the canvas shows which corners are transparent. */
const CHECKERBOARD = 'repeating-conic-gradient(#d9d9d9 0% 25%, #ffffff 0% 50%) 50% / 16px 16px';

/**
 * The result as the server renders it, from the same values and the same geometry: mirrored,
 * turned about its centre, the corners filled or cropped to the largest upright rectangle.
 */
export function RotatePreview({ url, settings }: { url: string; settings: RotateSettings }) {
  const { t } = useTranslation();
  const image = useImageElement(url);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const element = canvas.current;
    if (!image || !element) return;
    const { naturalWidth: width, naturalHeight: height } = image;
    const box = turnedSize(width, height, settings.angle);
    const cropped = settings.corners === 'crop' && settings.angle % 90 !== 0;
    const area = cropped
      ? largestUprightRect(width, height, settings.angle)
      : { left: 0, top: 0, ...box };
    const scale = Math.min(1, MAX_DRAWN / Math.max(area.width, area.height));
    element.width = Math.max(1, Math.round(area.width * scale));
    element.height = Math.max(1, Math.round(area.height * scale));
    const context = element.getContext('2d')!;
    context.clearRect(0, 0, element.width, element.height);
    if (settings.background !== 'transparent') {
      context.fillStyle = settings.background;
      context.fillRect(0, 0, element.width, element.height);
    }
    context.scale(scale, scale);
    context.translate(box.width / 2 - area.left, box.height / 2 - area.top);
    context.rotate((settings.angle * Math.PI) / 180);
    context.scale(settings.flipHorizontal ? -1 : 1, settings.flipVertical ? -1 : 1);
    context.drawImage(image, -width / 2, -height / 2, width, height);
  }, [image, settings]);

  return (
    <Box dir="ltr" style={{ display: 'flex', justifyContent: 'center' }}>
      <canvas
        ref={canvas}
        role="img"
        aria-label={t('rotate.preview')}
        data-testid="rotate-preview"
        style={{ maxWidth: '100%', maxHeight: 360, background: CHECKERBOARD }}
      />
    </Box>
  );
}
