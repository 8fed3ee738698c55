import { z } from 'zod';

/**
 * Multipart text fields of the interactive editors (crop, watermark, meme, face blur) and the
 * face detector. The browser previews; the server renders the download from these same values.
 */

/** Largest coordinate accepted; real values are clamped to the image by the server. */
const MAX_COORDINATE = 100_000;

const number = (field: string) =>
  z.coerce.number({ error: `${field} must be a number` }).refine(Number.isFinite, {
    error: `${field} must be a number`,
  });

const coordinate = (field: string) => number(field).min(0).max(MAX_COORDINATE);

/** The editor's quarter turns of the image (clockwise), before the rectangle is cut. */
export const CROP_TURNS = [0, 90, 180, 270] as const;
const flag = z.enum(['true', 'false']);

/**
 * The crop rectangle, in the pixels of the source image as the editor shows it: auto-oriented,
 * then mirrored (`flipHorizontal`, `flipVertical`), then turned by `turn` degrees clockwise.
 * The aspect ratio is the editor's: the rectangle already has it.
 */
export const cropFieldsSchema = z.object({
  x: coordinate('x'),
  y: coordinate('y'),
  width: coordinate('width').min(1),
  height: coordinate('height').min(1),
  turn: z.coerce
    .number()
    .refine((value) => (CROP_TURNS as readonly number[]).includes(value), {
      error: 'turn must be 0, 90, 180 or 270',
    })
    .default(0),
  flipHorizontal: flag.default('false'),
  flipVertical: flag.default('false'),
});

export const MAX_OVERLAY_TEXT = 200;

export const MEME_FONT_PX = 40;
export const MEME_BAND_PX = 80;

export const memeFieldsSchema = z.object({
  topText: z.string().trim().max(MAX_OVERLAY_TEXT).default(''),
  bottomText: z.string().trim().max(MAX_OVERLAY_TEXT).default(''),
  position: z.enum(['inside', 'outside']).default('inside'),
  background: z.enum(['white', 'black']).default('white'),
});

export const MIN_BLUR_AREA = 20;
export const MAX_BLUR_AREAS = 50;

export const blurAreaSchema = z.object({
  x: z.number().min(0).max(MAX_COORDINATE),
  y: z.number().min(0).max(MAX_COORDINATE),
  width: z.number().min(MIN_BLUR_AREA).max(MAX_COORDINATE),
  height: z.number().min(MIN_BLUR_AREA).max(MAX_COORDINATE),
});
export type BlurArea = z.infer<typeof blurAreaSchema>;

export const blurFaceFieldsSchema = z.object({
  /** JSON text `[{x, y, width, height}]` in source pixels (multipart fields are strings). */
  areas: z
    .string({ error: 'areas is required' })
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON list of areas' });
        return z.NEVER;
      }
    })
    .pipe(z.array(blurAreaSchema).min(1, 'add at least one area').max(MAX_BLUR_AREAS)),
});

export const detectedFaceSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  score: z.number(),
});
export const detectFacesResponseSchema = z.object({ faces: z.array(detectedFaceSchema) });
export type DetectedFace = z.infer<typeof detectedFaceSchema>;
