import { z } from 'zod';
import { MB } from './sizes.js';

/** HTML larger than this is refused with 413 (the JSON body limit is a little above it). */
export const MAX_HTML_BYTES = MB;

export const HTML_IMAGE_FORMATS = ['png', 'jpeg', 'webp'] as const;
/** The largest image a render writes, in pixels (4000 × 16000 CSS pixels at 1×)… */
export const MAX_HTML_IMAGE_PIXELS = 64_000_000;
/** …and its longest side in pixels (WebP's own limit is 16383). */
export const MAX_HTML_IMAGE_SIDE = 16_000;

export const htmlToImageBodySchema = z.object({
  // Blank HTML passes the schema so that it gets its own code, empty_html.
  html: z.string().meta({ pattern: '\\S' }),
  width: z.number().int().min(100).max(4000).default(1280),
  /** The viewport height; with fullPage the image is as tall as the content, up to 16000 px. */
  height: z.number().int().min(100).max(16_000).optional(),
  fullPage: z.boolean().default(true),
  /** Device pixels per CSS pixel: the image is width × scale pixels wide. */
  scale: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1),
  format: z.enum(HTML_IMAGE_FORMATS).default('png'),
});
export type HtmlToImageBody = z.infer<typeof htmlToImageBodySchema>;
