import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pngPaletteColours } from '@refract/contracts';
import type { PngOptions, Sharp } from 'sharp';
import { encodeHeif } from './heif.js';
import { hasGifsicle, shrinkGif } from './lossy-gif.js';
import { inImageSlot } from './slots.js';
import type { InputFormat } from './sniff.js';

/** What Compress writes. */
export type CompressedFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif' | 'tiff' | 'heic';

/** Formats kept as they are with "keep the image's own format": each has a smaller form. */
const KEPT = new Set<InputFormat>(['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff']);

/**
 * The format a compressed image keeps: its own for JPEG, PNG, WebP, AVIF, GIF (animation kept),
 * TIFF and HEIC (libheif writes it). BMP, ICO, PSD and the other formats have no lossy form: they
 * become PNG when they have transparency, else JPEG (the page says so before running). With
 * keepFormat off, JPEG, the tool's fixed output (`compressed-image.jpg`).
 */
export function compressedFormat(
  input: InputFormat,
  hasAlpha: boolean,
  keep: boolean,
): CompressedFormat {
  if (!keep) return 'jpeg';
  if (KEPT.has(input)) return input as CompressedFormat;
  if (input === 'heif') return 'heic';
  return hasAlpha ? 'png' : 'jpeg';
}

/**
 * Effort settings, measured in bench/compress-speed.bench.mjs (a 9 MB PNG took 45 s at effort
 * 10, an AVIF 29 s for 2.6 MP): the whole tool within 2× of sharp's palette encode of the same
 * PNG with the same options, and of sharp's default avif(). A palette PNG is many times slower
 * than sharp's lossless png(); the bench shows that too, and the page says why it is worth it.
 */
export const PNG_PALETTE_EFFORT = 7;
export const PNG_DEFLATE_LEVEL = 9;
export const AVIF_EFFORT = 4;

/**
 * Compress's PNG at `quality`: always a palette (at 100 too; there is no lossless setting, which
 * the page says), dithered as sharp does by default. bench/compress-speed.bench.mjs times sharp
 * with these same options beside the whole tool.
 */
export const pngPaletteOptions = (quality: number): PngOptions => ({
  palette: true,
  // libimagequant's target: the fewest colours that reach it, which a logo or a flat drawing
  // shows; a detailed photo needs the whole palette at any quality from 7 up.
  quality,
  // Fewer colours at the lowest qualities, where the palette's bit depth can shrink.
  colours: pngPaletteColours(quality),
  effort: PNG_PALETTE_EFFORT,
  compressionLevel: PNG_DEFLATE_LEVEL,
});

/** Whether `quality` changes this output's size (a TIFF with alpha is stored losslessly). */
export const isLossy = (format: CompressedFormat, hasAlpha: boolean) =>
  !(format === 'tiff' && hasAlpha);

/**
 * Sharp's encoder at one 1–100 quality for every format. PNG goes through palette quantisation
 * (libimagequant, as TinyPNG does), which keeps the alpha channel; JPEG uses mozjpeg's trellis
 * quantisation; GIF keeps fewer colours and lets frames reuse near-equal pixels, then gifsicle's
 * lossy encoder (lossy-gif.ts) lets runs of near-equal pixels compress.
 */
function sharpEncoder(pipeline: Sharp, format: CompressedFormat, quality: number, alpha: boolean) {
  switch (format) {
    case 'png':
      return pipeline.png(pngPaletteOptions(quality));
    case 'webp':
      return pipeline.webp({ quality, effort: 5 });
    case 'avif':
      // AVIF's scale runs lower than JPEG's for the same look; 80 → about AVIF's default 50.
      return pipeline.avif({ quality: avifQuality(quality), effort: AVIF_EFFORT });
    case 'gif':
      return pipeline.gif({
        colours: gifColours(quality),
        effort: 7,
        interFrameMaxError: Math.round((100 - quality) / 4),
      });
    case 'tiff':
      // JPEG inside TIFF has no alpha: a TIFF with transparency is deflated losslessly instead.
      return alpha
        ? pipeline.tiff({ compression: 'deflate', predictor: 'horizontal' })
        : pipeline.tiff({ compression: 'jpeg', quality });
    default:
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });
  }
}

const avifQuality = (quality: number) => Math.max(1, Math.round(quality * 0.65));
const gifColours = (quality: number) => Math.max(8, Math.round((256 * quality) / 100));

/** Encodes `pipeline` as `format` at `quality` into `path`, off the event loop, in a slot. */
export async function encodeCompressed(
  pipeline: Sharp,
  format: CompressedFormat,
  quality: number,
  { path, hasAlpha, signal }: { path: string; hasAlpha: boolean; signal?: AbortSignal },
): Promise<void> {
  if (format !== 'heic') {
    await inImageSlot(() => sharpEncoder(pipeline, format, quality, hasAlpha).toFile(path), signal);
    if (format === 'gif' && (await hasGifsicle()))
      await inImageSlot((slot) => shrinkGif(path, quality, gifColours(quality), slot), signal);
    return;
  }
  const png = join(path, '..', 'heic-source.png');
  try {
    await inImageSlot(() => pipeline.png().toFile(png), signal);
    // x265's scale is like AVIF's: 80 → 52.
    await inImageSlot(() => encodeHeif(png, path, signal, avifQuality(quality)), signal);
  } finally {
    await rm(png, { force: true });
  }
}
