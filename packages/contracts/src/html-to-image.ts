import { z } from 'zod';

/** HTML larger than this is refused with 413 (the JSON body limit is a little above it). */
export const MAX_HTML_BYTES = 1024 * 1024;

export const htmlToImageBodySchema = z.object({
  html: z.string(),
  width: z.number().int().min(100).max(4000).default(1280),
  /** The viewport height; with fullPage the image is as tall as the content, up to 16000 px. */
  height: z.number().int().min(100).max(16_000).optional(),
  fullPage: z.boolean().default(true),
  format: z.enum(['png', 'jpeg']).default('png'),
});
export type HtmlToImageBody = z.infer<typeof htmlToImageBodySchema>;
