import { z } from 'zod';

/**
 * Rotate's fields, and the geometry the page's preview and the server share so that the
 * preview is the download: any angle, mirrored first, the corners filled or cropped away.
 */

const flag = z.enum(['true', 'false']);

export const rotateFieldsSchema = z.object({
  /** Clockwise degrees, any angle (the page sends −180 to 180; a turn of 360 changes nothing). */
  angle: z.coerce
    .number()
    .refine(Number.isFinite, 'must be a number')
    .refine((a) => Math.abs(a) <= 36_000, 'is too large')
    .default(90),
  /**
   * What a turn that is not a quarter does with the corners it uncovers: `fill` them with
   * `background`, or `crop` to the largest upright rectangle inside the turned image.
   */
  corners: z.enum(['fill', 'crop']).default('fill'),
  /** #rrggbb, or `transparent` (white in a format without transparency, such as JPEG). */
  background: z
    .string()
    .regex(/^(#[0-9a-f]{6}|transparent)$/i, 'must be a colour like #ffffff, or transparent')
    .default('transparent'),
  /** Mirrored before the turn, as the page shows it. */
  flipHorizontal: flag.default('false'),
  flipVertical: flag.default('false'),
});

/** An angle as sharp takes it: 0 to 360 clockwise, fractions of a degree kept. */
export const normalisedAngle = (angle: number) => ((angle % 360) + 360) % 360;

/** The size of a width × height image turned by `degrees`: its bounding box. */
export function turnedSize(width: number, height: number, degrees: number) {
  const radians = (normalisedAngle(degrees) * Math.PI) / 180;
  const sin = Math.abs(Math.sin(radians));
  const cos = Math.abs(Math.cos(radians));
  return { width: width * cos + height * sin, height: width * sin + height * cos };
}

/**
 * The largest upright rectangle inside a width × height image turned by `degrees`, centred in
 * the turned image's bounding box (the known closed form: touching two or four sides).
 */
export function largestUprightRect(width: number, height: number, degrees: number) {
  const radians = (normalisedAngle(degrees) * Math.PI) / 180;
  const sin = Math.abs(Math.sin(radians));
  const cos = Math.abs(Math.cos(radians));
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  let inner: { width: number; height: number };
  if (sin < 1e-10 || cos < 1e-10) {
    inner = sin < 1e-10 ? { width, height } : { width: height, height: width };
  } else if (short <= 2 * sin * cos * long || Math.abs(sin - cos) < 1e-10) {
    const half = short / 2;
    inner =
      width >= height
        ? { width: half / sin, height: half / cos }
        : { width: half / cos, height: half / sin };
  } else {
    const cos2 = cos * cos - sin * sin;
    inner = {
      width: (width * cos - height * sin) / cos2,
      height: (height * cos - width * sin) / cos2,
    };
  }
  const box = turnedSize(width, height, degrees);
  return {
    width: inner.width,
    height: inner.height,
    left: (box.width - inner.width) / 2,
    top: (box.height - inner.height) / 2,
  };
}
