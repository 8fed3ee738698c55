import sharp, { type OverlayOptions } from 'sharp';
import { inImageSlot } from './slots.js';
import { MAX_TEXT_PIXELS, textTooLarge, type TextImage } from './text.js';

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };
/**
 * Pixels a turned overlay may cover. A square block turned 45° doubles; one long line turned
 * becomes a square of its length (a 25 MP line, 870 MP), which only sharp's own input limit
 * stopped, after the turn, as "larger than 100 megapixels".
 */
const MAX_TURNED_PIXELS = 2 * MAX_TEXT_PIXELS;

/**
 * Turns an overlay by `degrees` clockwise (as a canvas does), growing it to fit the corners;
 * 422 text_too_large when that would pass MAX_TURNED_PIXELS.
 */
export async function rotateOverlay(
  overlay: TextImage,
  degrees: number,
  signal?: AbortSignal,
): Promise<TextImage> {
  if (degrees % 360 === 0) return overlay;
  const turn = (degrees * Math.PI) / 180;
  const [cos, sin] = [Math.abs(Math.cos(turn)), Math.abs(Math.sin(turn))];
  const width = overlay.width * cos + overlay.height * sin;
  const height = overlay.width * sin + overlay.height * cos;
  if (width * height > MAX_TURNED_PIXELS) throw textTooLarge();
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
