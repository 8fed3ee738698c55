import { blurSigma, pixelBlockSize, type BlurStyle } from '@refract/contracts';
import sharp from 'sharp';
import type { LoadedImage } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import type { Box } from './blur-face.js';

/**
 * Above this sigma the box is blurred shrunk (by sigma / EXACT_SIGMA) and grown back: a
 * Gaussian's cost grows with its sigma, so a box the size of a large image would take minutes.
 * Boxes up to 200 px a side (most faces) get the exact Gaussian at the default strength.
 */
const EXACT_SIGMA = 40;

export interface HideOptions {
  style: BlurStyle;
  strength: number;
  /** `#rrggbb`, for the solid box. */
  color: string;
}

/**
 * One box hidden as asked, from its own pixels only, as a PNG patch to lay over the image.
 * Each pipeline runs in an image slot and stops with the signal; none costs more than a pass
 * over the box (blur and mosaic work on a shrunk copy when the box is large).
 */
export function hiddenPatch(
  image: LoadedImage,
  box: Box,
  options: HideOptions,
  signal: AbortSignal,
) {
  if (options.style === 'box') return solidPatch(box, options.color, signal);
  if (options.style === 'pixelate') return pixelatedPatch(image, box, options.strength, signal);
  return blurredPatch(image, box, options.strength, signal);
}

function solidPatch(box: Box, color: string, signal: AbortSignal) {
  return inImageSlot(
    () =>
      sharp({ create: { width: box.width, height: box.height, channels: 3, background: color } })
        .png()
        .toBuffer(),
    signal,
  );
}

/**
 * A mosaic: the box shrunk with nearest-neighbour to one pixel per block, then each pixel grown
 * back to a block (nearest again, an exact whole factor) and the overhang cut at the box's edge.
 */
async function pixelatedPatch(image: LoadedImage, box: Box, strength: number, signal: AbortSignal) {
  const block = pixelBlockSize(box, strength);
  const columns = Math.ceil(box.width / block);
  const rows = Math.ceil(box.height / block);
  const small = await inImageSlot(
    () =>
      image
        .pipeline()
        .extract(box)
        .resize(columns, rows, { fit: 'fill', kernel: 'nearest' })
        .png()
        .toBuffer(),
    signal,
  );
  return inImageSlot(
    () =>
      sharp(small)
        .resize(columns * block, rows * block, { fit: 'fill', kernel: 'nearest' })
        .extract({ left: 0, top: 0, width: box.width, height: box.height })
        .png()
        .toBuffer(),
    signal,
  );
}

/** The box blurred; two pipelines at most, one at a time. */
async function blurredPatch(image: LoadedImage, box: Box, strength: number, signal: AbortSignal) {
  const sigma = blurSigma(box, strength);
  if (sigma <= EXACT_SIGMA) {
    return inImageSlot(() => image.pipeline().extract(box).blur(sigma).png().toBuffer(), signal);
  }
  const shrink = sigma / EXACT_SIGMA;
  const small = await inImageSlot(
    () =>
      image
        .pipeline()
        .extract(box)
        .resize(
          Math.max(1, Math.round(box.width / shrink)),
          Math.max(1, Math.round(box.height / shrink)),
          { fit: 'fill' },
        )
        .blur(EXACT_SIGMA)
        .png()
        .toBuffer(),
    signal,
  );
  // sharp resizes before it blurs, so growing the patch back is a pipeline of its own.
  return inImageSlot(
    () => sharp(small).resize(box.width, box.height, { fit: 'fill' }).png().toBuffer(),
    signal,
  );
}
