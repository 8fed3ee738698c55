import { z } from 'zod';
import { requireFields } from './field-rules.js';
import { MB } from './sizes.js';

/**
 * The watermark's fields and its geometry: where the mark goes and how big it is. The browser
 * preview and the server's render both place the mark with these functions, so the preview is
 * the download.
 */

export const WATERMARK_BASE_FONT_PX = 40;
export const MAX_WATERMARK_TEXT = 200;
/** A logo upload (PNG, JPEG or WebP) is at most this many bytes and pixels. */
export const MAX_LOGO_BYTES = 5 * MB;
export const MAX_LOGO_PIXELS = 16_000_000;
/** Tiled marks past this count are spread further apart: a tiny mark cannot mean 100 000 copies. */
export const MAX_WATERMARK_TILES = 400;
/** The mark's width as a share of the image's width when a logo is sent without `size`. */
export const DEFAULT_LOGO_SIZE = 0.25;

/** The nine anchors, then `custom` (the dragged centre `x`, `y`) and `tiled` (repeated). */
export const WATERMARK_ANCHORS = [
  'top-left',
  'top',
  'top-right',
  'left',
  'center',
  'right',
  'bottom-left',
  'bottom',
  'bottom-right',
] as const;
export const WATERMARK_POSITIONS = ['custom', ...WATERMARK_ANCHORS, 'tiled'] as const;
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];

/** Faces bundled with the server (apps/server/src/media/image/text.ts): Noto Sans and Anton. */
export const WATERMARK_FONTS = ['sans', 'condensed'] as const;
export type WatermarkFont = (typeof WATERMARK_FONTS)[number];

const number = (field: string) =>
  z.coerce.number({ error: `${field} must be a number` }).refine(Number.isFinite, {
    error: `${field} must be a number`,
  });

export const watermarkFieldsSchema = requireFields(
  z.object({
    /** `logo` draws the image sent as the `logo` file part instead of text. */
    mark: z.enum(['text', 'logo']).default('text'),
    text: z.string().trim().max(MAX_WATERMARK_TEXT).default(''),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'color must be #rrggbb')
      .default('#ffffff'),
    font: z.enum(WATERMARK_FONTS).default('sans'),
    opacity: number('opacity').min(0).max(1).default(0.5),
    /** The mark's width as a share of the image's width: the same look on every image of a batch. */
    size: number('size').min(0.02).max(1).optional(),
    rotation: number('rotation').min(-180).max(180).default(0),
    position: z.enum(WATERMARK_POSITIONS).default('custom'),
    /** Distance from the edges for an anchor, as a share of the image's shorter side. */
    margin: number('margin').min(0).max(0.25).default(0.03),
    /** Space between tiled marks, as a share of the mark's own size. */
    gap: number('gap').min(0).max(3).default(0.5),
    /** Centre of the mark for `custom`, as fractions of the image's width and height. */
    x: number('x').min(0).max(1).default(0.5),
    y: number('y').min(0).max(1).default(0.5),
    /** Older clients: the font is 40 px × scale of a preview this wide (used when `size` is absent). */
    scale: number('scale').min(0.5).max(3).default(1),
    previewWidth: number('previewWidth').min(1).max(100_000).optional(),
  }),
  [
    {
      when: { field: 'mark', equals: 'text' },
      anyOf: [['text']],
      message: 'enter the watermark text',
    },
  ],
);
export type WatermarkFields = z.output<typeof watermarkFieldsSchema>;

export interface Box {
  width: number;
  height: number;
}
export interface Point {
  x: number;
  y: number;
}

/** The box a `width`×`height` mark fills once turned by `degrees`. */
export function turnedBox(mark: Box, degrees: number): Box {
  const turn = (degrees * Math.PI) / 180;
  const [cos, sin] = [Math.abs(Math.cos(turn)), Math.abs(Math.sin(turn))];
  return {
    width: mark.width * cos + mark.height * sin,
    height: mark.width * sin + mark.height * cos,
  };
}

/**
 * The width the mark is drawn at on `image`, before turning: `size` of the image's width, or
 * for older clients the 40 px × scale text of a preview `previewWidth` wide, measured by
 * `naturalWidth` (the mark's width at 40 px; a logo's own width).
 */
export function markWidth(
  fields: Pick<WatermarkFields, 'mark' | 'size' | 'scale' | 'previewWidth'>,
  image: Box,
  naturalWidth: number,
): number {
  const size = fields.size ?? (fields.mark === 'logo' ? DEFAULT_LOGO_SIZE : undefined);
  if (size !== undefined) return size * image.width;
  return naturalWidth * fields.scale * (image.width / (fields.previewWidth ?? image.width));
}

/** A logo `natural` scaled to `width`, no taller than the image (a 1×1000 strip stays in it). */
export function logoBox(natural: Box, width: number, image: Box): Box {
  const fit = Math.min(width / natural.width, image.height / natural.height);
  return {
    width: Math.max(1, Math.round(natural.width * fit)),
    height: Math.max(1, Math.round(natural.height * fit)),
  };
}

/** Contrasting outline for text of `color`: dark around light text, light around dark. */
export function outlineColorFor(color: string): string {
  const value = Number.parseInt(color.slice(1), 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b >= 128 ? '#000000' : '#ffffff';
}

/**
 * Centres of the mark on `image` given its turned box `mark`: one for `custom` and the anchors
 * (margin from the edges), a brick pattern over the whole image for `tiled`, spread further
 * apart when it would pass MAX_WATERMARK_TILES.
 */
export function markCentres(
  fields: Pick<WatermarkFields, 'position' | 'x' | 'y' | 'margin' | 'gap'>,
  image: Box,
  mark: Box,
): Point[] {
  const { position } = fields;
  if (position === 'custom') return [{ x: fields.x * image.width, y: fields.y * image.height }];
  if (position !== 'tiled') {
    const margin = fields.margin * Math.min(image.width, image.height);
    const along = (where: 'start' | 'middle' | 'end', length: number, own: number) =>
      where === 'start'
        ? margin + own / 2
        : where === 'end'
          ? length - margin - own / 2
          : length / 2;
    const column = position.endsWith('left')
      ? 'start'
      : position.endsWith('right')
        ? 'end'
        : 'middle';
    const row = position.startsWith('top')
      ? 'start'
      : position.startsWith('bottom')
        ? 'end'
        : 'middle';
    return [
      { x: along(column, image.width, mark.width), y: along(row, image.height, mark.height) },
    ];
  }
  let stepX = Math.max(1, mark.width * (1 + fields.gap));
  let stepY = Math.max(1, mark.height * (1 + fields.gap));
  const count = () => (image.width / stepX + 3) * (image.height / stepY + 3);
  if (count() > MAX_WATERMARK_TILES) {
    const spread = Math.sqrt(count() / MAX_WATERMARK_TILES);
    stepX *= spread;
    stepY *= spread;
    while (count() > MAX_WATERMARK_TILES) [stepX, stepY] = [stepX * 1.1, stepY * 1.1];
  }
  const columns = Math.ceil(image.width / 2 / stepX) + 1;
  const rows = Math.ceil(image.height / 2 / stepY) + 1;
  const centres: Point[] = [];
  for (let row = -rows; row <= rows; row += 1) {
    // Every other row shifts by half a step, so the marks run on the diagonal too.
    const shift = Math.abs(row) % 2 === 1 ? stepX / 2 : 0;
    for (let column = -columns; column <= columns; column += 1) {
      const x = image.width / 2 + column * stepX + shift;
      const y = image.height / 2 + row * stepY;
      const inside =
        x + mark.width / 2 > 0 &&
        x - mark.width / 2 < image.width &&
        y + mark.height / 2 > 0 &&
        y - mark.height / 2 < image.height;
      if (inside) centres.push({ x, y });
    }
  }
  return centres.slice(0, MAX_WATERMARK_TILES);
}
