import { open, readFile } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { AppError } from '../../lib/app-error.js';
import { decodeHeif } from './heif.js';
import { jpegQualityOf } from './jpeg-quality.js';
import { declaredPixels } from './declared-size.js';
import { decodeToPng, MAGICK_MAX_PIXELS, magickTooLarge } from './magick.js';
import { inImageSlot } from './slots.js';
import { hasProcessingInstruction, svgReferences } from './svg-references.js';
import {
  FILTER_PIXEL_BUDGET,
  filterPrimitives,
  filtersTooCostly,
  rasterizeSvg,
} from './svg-raster.js';
import { sniffFile, type InputFormat } from './sniff.js';

/** Pixels an input may decode to (about 100 megapixels, e.g. 10000×10000). */
export const MAX_INPUT_PIXELS = 100_000_000;

const SHARP_INPUTS = new Set<InputFormat>(['jpeg', 'png', 'gif', 'webp', 'tiff', 'avif', 'svg']);
const MAGICK_INPUTS: Partial<
  Record<InputFormat, 'Bmp' | 'Ico' | 'Cur' | 'Psd' | 'Dds' | 'Pcx' | 'Tga' | 'Ppm' | 'Pgm' | 'Pbm'>
> = {
  bmp: 'Bmp',
  ico: 'Ico',
  cur: 'Cur',
  psd: 'Psd',
  dds: 'Dds',
  pcx: 'Pcx',
  tga: 'Tga',
  ppm: 'Ppm',
  pgm: 'Pgm',
  pbm: 'Pbm',
};

/** Whether uploads in this format are decoded (sharp natively, ImageMagick for the rest). */
export function canRead(format: string): boolean {
  return SHARP_INPUTS.has(format as InputFormat) || format in MAGICK_INPUTS;
}

export interface LoadedImage {
  format: InputFormat;
  /**
   * A fresh sharp pipeline on the input, auto-oriented, metadata not carried over except an RGB
   * image's colour profile (see keepsProfile).
   */
  pipeline(options?: { animated?: boolean }): Sharp;
  pages: number;
  /** A JPEG's estimated libjpeg quality, to re-encode near it (own-format.ts). */
  jpegQuality?: number;
  /** A WebP stored losslessly, to keep it so. */
  webpLossless?: boolean;
}

/** Whether a WebP's first image chunk is lossless (VP8L) rather than lossy (VP8). */
async function isLosslessWebp(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const text = head.toString('latin1', 0, bytesRead);
    const lossless = text.indexOf('VP8L');
    const lossy = text.indexOf('VP8 ');
    return lossless >= 0 && (lossy < 0 || lossless < lossy);
  } finally {
    await file.close();
  }
}

/**
 * Whether results carry the input's ICC profile. An RGB photo keeps its own (Display P3, Adobe
 * RGB, an embedded sRGB) so its colours and gamut survive every tool; sharp otherwise converts
 * to sRGB and drops it. CMYK and greyscale inputs are still converted to sRGB: a tool may add
 * colour (a watermark), which a CMYK or grey profile could not describe.
 */
const keepsProfile = (meta: { icc?: Buffer; space?: string }) =>
  meta.icc !== undefined && (meta.space === 'srgb' || meta.space === 'rgb16');

export const invalidImage = (detail?: string) =>
  new AppError(
    422,
    'invalid_image',
    `The file is damaged or is not a valid image${detail ? ` (${detail})` : ''}`,
  );
export const imageTooLarge = () =>
  new AppError(
    422,
    'image_too_large',
    `The image is larger than ${MAX_INPUT_PIXELS / 1_000_000} megapixels`,
  );

/** sharp's and ImageMagick's messages to our codes. */
export function toImageError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const message = String((err as Error)?.message ?? err);
  if (/pixel limit|exceeds.*limit|WidthOrHeightExceedsLimit|ResourceLimit|too large/i.test(message))
    return imageTooLarge();
  if (/timeout/i.test(message))
    return new AppError(504, 'processing_timeout', 'Processing took too long and was stopped');
  return invalidImage();
}

/** What an SVG may point at: its own elements, or an embedded raster image. */
const SAFE_REFERENCE = /^\s*(#|data:image\/(png|jpeg|gif|webp)[;,])/i;

/**
 * SVG is checked here, then drawn once in a child process (svg-raster.ts) into a raster file
 * that every tool reads. Entities and processing instructions (an `<?xml-stylesheet?>` names a
 * style sheet) are refused outright, and so is any reference outside the file: librsvg draws an
 * absolute file:// href, which would read the server's disk. Filters are held to a budget of
 * pixels before anything is drawn.
 */
async function loadSvg(path: string, signal?: AbortSignal): Promise<string> {
  const text = await readFile(path, 'utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw invalidImage('SVG with a DOCTYPE or entities');
  if (hasProcessingInstruction(text)) throw invalidImage('SVG with a processing instruction');
  if (svgReferences(text).some((ref) => !SAFE_REFERENCE.test(ref)))
    throw invalidImage('SVG that links to other files');
  // The size is read from the document alone (librsvg parses it, drawing nothing).
  const { width = 0, height = 0 } = await inImageSlot(
    () => sharp(Buffer.from(text), { limitInputPixels: MAX_INPUT_PIXELS }).metadata(),
    signal,
  );
  if (width * height > MAX_INPUT_PIXELS) throw imageTooLarge();
  if (width * height * filterPrimitives(text) > FILTER_PIXEL_BUDGET) throw filtersTooCostly();
  const raster = `${path}.svg.v`;
  try {
    await inImageSlot((slot) => rasterizeSvg(path, raster, MAX_INPUT_PIXELS, slot), signal);
  } catch (err) {
    if (err instanceof AppError || signal?.aborted) throw err;
    throw /memory/i.test(String(err)) ? imageTooLarge() : toImageError(err);
  }
  return raster;
}

/**
 * Opens an uploaded file as an image: the type comes from its bytes, decoding is bounded by a
 * pixel limit, and a damaged file is an `invalid_image` error, never a crash.
 */
export async function loadImage(path: string, signal?: AbortSignal): Promise<LoadedImage> {
  const format = await sniffFile(path);
  if (!format || (!SHARP_INPUTS.has(format) && !MAGICK_INPUTS[format] && format !== 'heif')) {
    throw new AppError(
      415,
      'unsupported_media_type',
      'This file is not an image format we can read',
    );
  }
  let input: string | Buffer = path;
  try {
    if (format === 'svg') input = await loadSvg(path, signal);
    const magickFormat = MAGICK_INPUTS[format];
    // Both decode off the event loop (a worker thread, a child process), holding an image slot.
    if (magickFormat) {
      const bytes = await readFile(path);
      if ((declaredPixels(bytes, format) ?? 0) > MAGICK_MAX_PIXELS) throw magickTooLarge();
      input = await inImageSlot((slot) => decodeToPng(bytes, magickFormat, slot), signal);
    }
    if (format === 'heif') input = await inImageSlot((slot) => decodeHeif(path, slot), signal);
    const base = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const meta = await inImageSlot(() => base().metadata(), signal);
    if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) throw imageTooLarge();
    const keepProfile = keepsProfile(meta);
    return {
      format,
      pages: meta.pages ?? 1,
      jpegQuality: format === 'jpeg' ? await jpegQualityOf(path) : undefined,
      webpLossless: format === 'webp' ? await isLosslessWebp(path) : undefined,
      pipeline: ({ animated = false } = {}) => {
        const pipeline = sharp(input, {
          limitInputPixels: MAX_INPUT_PIXELS,
          failOn: 'error',
          animated,
        })
          .autoOrient()
          .timeout({ seconds: 60 });
        return keepProfile ? pipeline.keepIccProfile() : pipeline;
      },
    };
  } catch (err) {
    throw toImageError(err);
  }
}
