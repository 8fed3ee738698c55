import { z } from 'zod';
import { mediaFormatInfoSchema } from './media.js';
import { KB, MB } from './sizes.js';

/** Every target Convert offers for images; `GET /api/formats` says which this server can write. */
export const IMAGE_FORMATS = [
  'jpeg',
  'jpg',
  'png',
  'webp',
  'avif',
  'tiff',
  'heif',
  'heic',
  'svg',
  'eps',
  'pdf',
  'cdr',
  'gif',
  'mp4',
  'webm',
  'mov',
  'bmp',
  'psd',
  'ico',
  'cur',
  'pcx',
  'tga',
  'xcf',
  'dds',
  // Netpbm: libvips' cousins read them, scanners and scientists write them.
  'ppm',
  'pgm',
  'pbm',
] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const formatInfoSchema = z.object({
  format: z.enum(IMAGE_FORMATS),
  read: z.boolean(),
  write: z.boolean(),
  /** Why a format cannot be written here, in English; the web translates by format. */
  reason: z.string().optional(),
});
export const formatsResponseSchema = z.object({
  formats: z.array(formatInfoSchema),
  /** Audio and video targets, with whether this server's ffmpeg can write each. */
  media: z.array(mediaFormatInfoSchema),
  /** The server's own largest file by kind of tool, which no plan can pass (plans' sizes are within it). */
  fileMaxBytes: z.object({ image: z.number().int(), media: z.number().int() }),
});
export type FormatsResponse = z.infer<typeof formatsResponseSchema>;
export type FormatInfo = z.infer<typeof formatInfoSchema>;

/** Multipart text fields of the image tools (the file part is `image`). */
export const convertFieldsSchema = z.object({ format: z.enum(IMAGE_FORMATS).default('png') });
export const compressFieldsSchema = z.object({
  quality: z.coerce.number().int().min(1).max(100).default(80),
  width: z.coerce.number().int().min(1).max(16_384).optional(),
  height: z.coerce.number().int().min(1).max(16_384).optional(),
  /** On (the default): the image keeps its own format (decision 016); off: always JPEG. */
  keepFormat: z.enum(['true', 'false']).default('true'),
  /**
   * Aim at a size: the highest quality up to `quality` whose result is at most this many bytes;
   * 422 `target_unreachable` (with `smallestBytes`) when none is.
   */
  targetBytes: z.coerce
    .number()
    .int()
    .min(KB)
    .max(100 * MB)
    .optional(),
  /** With targetBytes: the dimensions may shrink when no quality down to 50 fits. */
  allowResize: z.enum(['true', 'false']).default('false'),
});
/**
 * The most colours Compress keeps in a PNG at `quality`. PNG has no lossy form: Compress makes a
 * palette (libimagequant, as TinyPNG and pngquant do) of the fewest colours that reach the
 * quality, within this size. The size is a PNG bit depth (1, 2, 4 or 8 bits: sharp turns its
 * `colours` into one), so 256 from quality 7 up, 16 from 2 to 6 and 4 at 1. Shared so the
 * page's hint states the very number the server encodes with.
 */
export function pngPaletteColours(quality: number): number {
  const wanted = Math.max(2, Math.round((256 * quality) / 100));
  const bits = [1, 2, 4, 8].find((depth) => 2 ** depth >= wanted) ?? 8;
  return 2 ** bits;
}
/** The largest result of an upscale, in pixels (either method). */
export const UPSCALE_MAX_RESULT_PIXELS = 64_000_000;
/**
 * The largest input, in pixels, per factor: what gives the largest result, so a 16-megapixel
 * phone photo at ×2 and 4 megapixels at ×4, with the model or the fast method alike.
 */
export const UPSCALE_MAX_INPUT_PIXELS = {
  2: UPSCALE_MAX_RESULT_PIXELS / 4,
  4: UPSCALE_MAX_RESULT_PIXELS / 16,
} as const;
/**
 * Seconds the model takes per input megapixel, per factor, on 2 cores (bench/upscale.bench.mjs
 * through the app at rest: 5.8 at ×2, 134 at ×4; rounded up by a third for a machine with other
 * work): the page's estimate before running, and the job's time limit (ten times it).
 */
export const UPSCALE_MODEL_SECONDS_PER_MP = { 2: 8, 4: 180 } as const;

export const upscaleFieldsSchema = z.object({
  /** Each side times 2 (the default, as the product was first described) or 4. */
  scale: z.enum(['2', '4']).default('2'),
  /** `model`: a super-resolution network (ESRGAN); `fast`: a lanczos resize, as before. */
  method: z.enum(['model', 'fast']).default('model'),
});
