import { z } from 'zod';
import { requireFields } from './field-rules.js';

/** Largest side a resize may ask for or produce (the pixel bound is the server's 100 MP). */
export const MAX_RESIZE_SIDE = 16_384;
export const MAX_RESIZE_PERCENTAGE = 1_000;

export const RESIZE_FITS = ['contain', 'cover', 'stretch'] as const;
export type ResizeFit = (typeof RESIZE_FITS)[number];

/** The page's presets: width × height for common targets. */
export const RESIZE_PRESETS = [
  { id: 'square', width: 1080, height: 1080 },
  { id: 'fullHd', width: 1920, height: 1080 },
  { id: 'socialCard', width: 1200, height: 630 },
  { id: 'favicon', width: 512, height: 512 },
] as const;

const side = (field: string) =>
  z.coerce
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(1)
    .max(MAX_RESIZE_SIDE)
    .optional();

const flag = z.enum(['true', 'false']);

/** Multipart text fields of `POST /api/resize`. */
export const resizeFieldsSchema = requireFields(
  z.object({
    mode: z.enum(['pixels', 'percentage']).default('pixels'),
    width: side('width'),
    height: side('height'),
    percentage: z.coerce
      .number({ error: 'percentage must be a number' })
      .gt(0)
      .max(MAX_RESIZE_PERCENTAGE)
      .optional(),
    /** On: width and height are a box the image fits inside, its shape kept. */
    keepAspect: flag.default('true'),
    /** With keepAspect off and both sides given: how the image fills exactly width × height. */
    fit: z.enum(RESIZE_FITS).default('contain'),
    /** The padding of `contain`: #rrggbb, or #rrggbbaa for transparency where the format has it. */
    background: z
      .string()
      .regex(/^#([0-9a-f]{6}|[0-9a-f]{8})$/i, 'must be a colour like #ffffff')
      .default('#ffffff'),
    allowEnlarge: flag.default('false'),
  }),
  [
    { when: { field: 'mode', equals: 'percentage' }, anyOf: [['percentage']] },
    {
      when: { field: 'mode', equals: 'pixels' },
      anyOf: [['width'], ['height']],
      message: 'give a width, a height or both',
    },
  ],
);
export type ResizeFields = z.output<typeof resizeFieldsSchema>;

export interface ResizePlan {
  /** The result's size. */
  width: number;
  height: number;
  /** How the server resizes to it: `fill` also covers the cases whose shape is already right. */
  fit: 'fill' | 'contain' | 'cover';
  /** Smaller than asked, because enlarging was not allowed. */
  limited: boolean;
}

const atLeastOne = (value: number) => Math.max(1, Math.round(value));

/**
 * The result's size for an image of `source` size, shared by the server (which makes it) and
 * the page (which shows it before sending). Without allowEnlarge no pixel is enlarged: a target
 * bigger than the image shrinks, keeping its shape, until the image covers it at 100 %.
 */
export function planResize(
  source: { width: number; height: number },
  fields: Pick<
    ResizeFields,
    'mode' | 'width' | 'height' | 'percentage' | 'keepAspect' | 'fit' | 'allowEnlarge'
  >,
): ResizePlan {
  const enlarge = fields.allowEnlarge === 'true';
  const { width: w, height: h } = source;
  // Scale the whole image by one factor: percentage, one side, or a box kept in shape.
  const scaled = (scale: number): ResizePlan => {
    const capped = enlarge ? scale : Math.min(scale, 1);
    return {
      width: atLeastOne(w * capped),
      height: atLeastOne(h * capped),
      fit: 'fill',
      limited: capped < scale,
    };
  };
  if (fields.mode === 'percentage') return scaled((fields.percentage ?? 100) / 100);
  const { width, height } = fields;
  if (width === undefined) return scaled(height! / h);
  if (height === undefined) return scaled(width / w);
  if (fields.keepAspect === 'true') return scaled(Math.min(width / w, height / h));
  // Exactly width × height; the image's own scale decides whether that would enlarge it.
  const imageScale =
    fields.fit === 'contain' ? Math.min(width / w, height / h) : Math.max(width / w, height / h);
  const shrink = !enlarge && imageScale > 1 ? 1 / imageScale : 1;
  return {
    width: atLeastOne(width * shrink),
    height: atLeastOne(height * shrink),
    fit: fields.fit === 'stretch' ? 'fill' : fields.fit,
    limited: shrink < 1,
  };
}
