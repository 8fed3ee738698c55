import { z } from 'zod';

/** What `POST /api/remove-background` writes: both keep transparency and every pixel (WebP lossless). */
export const REMOVE_BACKGROUND_FORMATS = ['png', 'webp'] as const;
export type RemoveBackgroundFormat = (typeof REMOVE_BACKGROUND_FORMATS)[number];

/** Multipart text fields of `POST /api/remove-background`. */
export const removeBackgroundFieldsSchema = z.object({
  format: z.enum(REMOVE_BACKGROUND_FORMATS).default('png'),
  /** Absent: a transparent background. A colour (#rrggbb) puts the subject on that colour. */
  background: z
    .string()
    .regex(/^#[0-9a-f]{6}$/i, 'must be a colour like #ffffff')
    .optional(),
});
export type RemoveBackgroundFields = z.output<typeof removeBackgroundFieldsSchema>;
