import { z } from 'zod';
import { jsonText, requireFields } from './field-rules.js';

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

export const MIN_BLUR_AREA = 20;
export const MAX_BLUR_AREAS = 50;

export const blurAreaSchema = z.object({
  x: z.number().min(0).max(MAX_COORDINATE),
  y: z.number().min(0).max(MAX_COORDINATE),
  width: z.number().min(MIN_BLUR_AREA).max(MAX_COORDINATE),
  height: z.number().min(MIN_BLUR_AREA).max(MAX_COORDINATE),
});
export type BlurArea = z.infer<typeof blurAreaSchema>;

/** How an area is hidden: blurred, pixelated (mosaic), or covered by a solid box. */
export const BLUR_STYLES = ['blur', 'pixelate', 'box'] as const;
export type BlurStyle = (typeof BLUR_STYLES)[number];
export const BLUR_STRENGTH = { min: 1, max: 10, default: 5 } as const;

/** A 10 px blur at the default strength, grown with the box so a large face is as unreadable. */
const MIN_SIGMA = 10;
const SIGMA_PER_BOX_SIDE = 1 / 5;
export const MAX_BLUR_SIGMA = 1000;

/**
 * The Gaussian's sigma for a box, in the box's own pixels: at the default strength (5) a
 * blur of max(10, longer side / 5); each step of strength is a fifth of that more or less.
 */
export function blurSigma(box: { width: number; height: number }, strength: number): number {
  const base = Math.max(MIN_SIGMA, Math.max(box.width, box.height) * SIGMA_PER_BOX_SIDE);
  return Math.min(MAX_BLUR_SIGMA, (base * strength) / BLUR_STRENGTH.default);
}

/**
 * A pixelated box's block side in its own pixels: strength × 2 % of its longer side (10 % at the
 * default), never under 2 px. Blocks start at the box's top-left corner; the last row and column
 * are cut by the box's edge. The browser's preview and the server's download use this alike.
 */
export function pixelBlockSize(box: { width: number; height: number }, strength: number): number {
  return Math.max(2, Math.round((Math.max(box.width, box.height) * strength) / 50));
}

export const blurFaceFieldsSchema = requireFields(
  z.object({
    /**
     * JSON text `[{x, y, width, height}]` in source pixels (multipart fields are strings).
     * Required unless `detect` is true.
     */
    areas: jsonText(
      z.array(blurAreaSchema).max(MAX_BLUR_AREAS),
      'must be a JSON list of areas',
    ).optional(),
    /** `true`: the server finds the faces in the image itself and hides them too. */
    detect: flag.default('false'),
    style: z.enum(BLUR_STYLES, { error: 'style must be blur, pixelate or box' }).default('blur'),
    strength: z.coerce
      .number({ error: 'strength must be a whole number from 1 to 10' })
      .int('strength must be a whole number from 1 to 10')
      .min(BLUR_STRENGTH.min, 'strength must be a whole number from 1 to 10')
      .max(BLUR_STRENGTH.max, 'strength must be a whole number from 1 to 10')
      .default(BLUR_STRENGTH.default),
    /** The solid box's colour (style `box`). */
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'color must be #rrggbb')
      .default('#000000'),
  }),
  [
    {
      when: { field: 'detect', equals: 'false' },
      anyOf: [['areas']],
      message: (fields) =>
        fields.areas ? 'add at least one area' : 'areas is required (or send detect=true)',
    },
  ],
);

/** A face found, in source pixels, with a margin for hair, ears and jaw: the area to hide. */
export const detectedFaceSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  score: z.number(),
});
export const detectFacesResponseSchema = z.object({ faces: z.array(detectedFaceSchema) });
export type DetectedFace = z.infer<typeof detectedFaceSchema>;
