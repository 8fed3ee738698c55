import sharp, { type OverlayOptions } from 'sharp';
import { inImageSlot } from './slots.js';
import type { TextImage } from './text.js';

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

/** Turns an overlay by `degrees` clockwise (as a canvas does), growing it to fit the corners. */
export async function rotateOverlay(
  overlay: TextImage,
  degrees: number,
  signal?: AbortSignal,
): Promise<TextImage> {
  if (degrees % 360 === 0) return overlay;
  const { data, info } = await inImageSlot(
    () =>
      sharp(overlay.png)
        .rotate(degrees, { background: TRANSPARENT })
        .png()
        .toBuffer({ resolveWithObject: true }),
    signal,
  );
  return { png: data, width: info.width, height: info.height };
}

/** Multiplies the overlay's alpha by `opacity` (0 to 1). */
export async function fadeOverlay(
  overlay: TextImage,
  opacity: number,
  signal?: AbortSignal,
): Promise<TextImage> {
  if (opacity >= 1) return overlay;
  const png = await inImageSlot(
    () =>
      sharp(overlay.png).ensureAlpha().linear([1, 1, 1, opacity], [0, 0, 0, 0]).png().toBuffer(),
    signal,
  );
  return { ...overlay, png };
}

/**
 * The part of an overlay placed at (left, top) that lies on a base of `width`×`height`, ready
 * for sharp's composite (which refuses overlays that stick out); null when none of it does.
 */
export async function clipOverlay(
  overlay: TextImage,
  left: number,
  top: number,
  base: { width: number; height: number },
  signal?: AbortSignal,
): Promise<OverlayOptions | null> {
  const x0 = Math.max(0, Math.round(left));
  const y0 = Math.max(0, Math.round(top));
  const x1 = Math.min(base.width, Math.round(left) + overlay.width);
  const y1 = Math.min(base.height, Math.round(top) + overlay.height);
  if (x1 <= x0 || y1 <= y0) return null;
  const visible =
    x1 - x0 === overlay.width && y1 - y0 === overlay.height
      ? overlay.png
      : await inImageSlot(
          () =>
            sharp(overlay.png)
              .extract({
                left: x0 - Math.round(left),
                top: y0 - Math.round(top),
                width: x1 - x0,
                height: y1 - y0,
              })
              .png()
              .toBuffer(),
          signal,
        );
  return { input: visible, left: x0, top: y0 };
}
