import { z } from 'zod';
import { mediaFormatInfoSchema } from './media.js';

/** Every target of spec section 5's conversion list; `GET /api/formats` says which this server can write. */
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
  // Netpbm, beyond the spec's list: libvips' cousins read them, scanners and scientists write them.
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
});
export type FormatInfo = z.infer<typeof formatInfoSchema>;

/** Multipart text fields of the image tools (the file part is `image`). */
export const convertFieldsSchema = z.object({ format: z.enum(IMAGE_FORMATS).default('png') });
export const compressFieldsSchema = z.object({
  quality: z.coerce.number().int().min(1).max(100).default(80),
  width: z.coerce.number().int().min(1).max(16_384).optional(),
  height: z.coerce.number().int().min(1).max(16_384).optional(),
  /** On (the default): the image keeps its own format (decision 016); off: JPEG, as the spec has it. */
  keepFormat: z.enum(['true', 'false']).default('true'),
});
export const upscaleFieldsSchema = z.object({});
