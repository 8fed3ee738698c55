import { z } from 'zod';

/**
 * The meme generator's fields and its layout math. The browser's canvas preview and the server's
 * Pango render both lay captions out with these functions, so the preview is the download.
 */

export const MAX_MEME_TEXT = 200;
export const MAX_MEME_BOXES = 10;
/** Font size as a percentage of the image's height (imgflip-style captions are about 10 %). */
export const MEME_FONT_SIZE = { min: 4, max: 25, default: 10 } as const;
/** Outline width as a percentage of the font size; 0 draws none. */
export const MEME_OUTLINE = { min: 0, max: 10, default: 6 } as const;
/** Outline pixels at most (its blur's cost on the server). */
export const MEME_MAX_OUTLINE_PX = 48;
/** A caption keeps to this many lines: its font shrinks until it does. */
export const MEME_MAX_LINES = 3;
/** Lines are this many font sizes apart; each line's ink is centred in its slot. */
export const MEME_LINE_PITCH = 1.2;
/** Word widths are measured at this size and scaled (text width grows linearly with size). */
export const MEME_MEASURE_PX = 100;
/** The smallest font auto-shrink reaches. */
const MIN_FONT_PX = 4;
const SHRINK_STEP = 0.92;
/**
 * Lines a caption keeps at most, when words too wide even at MIN_FONT_PX (a sliver of an
 * image) take a line each: each line is a render, so a request's work stays bounded.
 */
export const MEME_MAX_KEPT_LINES = 2 * MEME_MAX_LINES;

const number = (field: string) =>
  z.coerce.number({ error: `${field} must be a number` }).refine(Number.isFinite, {
    error: `${field} must be a number`,
  });

/** A text box the user placed: centre and width as fractions of the image. */
export const memeBoxSchema = z.object({
  text: z.string().trim().max(MAX_MEME_TEXT),
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
  width: z.number().min(0.05).max(1),
  fontSize: z.number().min(MEME_FONT_SIZE.min).max(MEME_FONT_SIZE.max).optional(),
});
export type MemeBox = z.infer<typeof memeBoxSchema>;

export const memeFieldsSchema = z.object({
  topText: z.string().trim().max(MAX_MEME_TEXT).default(''),
  bottomText: z.string().trim().max(MAX_MEME_TEXT).default(''),
  position: z.enum(['inside', 'outside']).default('inside'),
  background: z.enum(['white', 'black']).default('white'),
  fontSize: number('fontSize')
    .min(MEME_FONT_SIZE.min)
    .max(MEME_FONT_SIZE.max)
    .default(MEME_FONT_SIZE.default),
  outline: number('outline')
    .min(MEME_OUTLINE.min)
    .max(MEME_OUTLINE.max)
    .default(MEME_OUTLINE.default),
  /** JSON text `[{text, x, y, width, fontSize?}]` (multipart fields are strings). */
  boxes: z
    .string()
    .default('[]')
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON list of text boxes' });
        return z.NEVER;
      }
    })
    .pipe(z.array(memeBoxSchema).max(MAX_MEME_BOXES)),
});
export type MemeFields = z.output<typeof memeFieldsSchema>;

/** The font's pixels for a caption on an image `imageHeight` pixels high. */
export const memeFontPx = (imageHeight: number, fontSize: number) =>
  Math.max(4, Math.round((imageHeight * fontSize) / 100));

export const memeOutlinePx = (fontPx: number, outline: number) =>
  Math.min(MEME_MAX_OUTLINE_PX, Math.round((fontPx * outline) / 100));

/** Space between captions and the image's edges (and inside the outside bands). */
export const memeMarginPx = (width: number, height: number) =>
  Math.max(2, Math.round(Math.min(width, height) * 0.02));

export const memeLineHeightPx = (fontPx: number) => Math.round(fontPx * MEME_LINE_PITCH);

/** An outside band holds its caption's lines (at least one) and a margin above and below. */
export const memeBandPx = (fit: MemeFit, margin: number) =>
  Math.max(1, fit.lines.length) * memeLineHeightPx(fit.fontPx) + 2 * margin;

/** Ink widths at MEME_MEASURE_PX: of a word, and of the space between words. */
export interface MemeMeasure {
  word(text: string): number;
  space: number;
}

export interface MemeFit {
  fontPx: number;
  lines: string[];
}

/**
 * A fitted caption as placed on the output, server and preview alike: its lines' slots start
 * at `top`, centred on `centreX`.
 */
export interface MemeBlock {
  fit: MemeFit;
  centreX: number;
  top: number;
  color: string;
  outlinePx: number;
}

export const memeWords = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * Wraps `text` at spaces into lines no wider than `maxWidth`, shrinking the font from `fontPx`
 * until it takes at most MEME_MAX_LINES lines and no word sticks out (or reaches MIN_FONT_PX).
 */
export function fitMemeText(
  text: string,
  fontPx: number,
  maxWidth: number,
  measure: MemeMeasure,
): MemeFit {
  const words = memeWords(text);
  if (words.length === 0) return { fontPx, lines: [] };
  const floor = Math.min(fontPx, MIN_FONT_PX);
  for (let px = fontPx; ; px = Math.max(floor, Math.floor(px * SHRINK_STEP))) {
    const limit = (maxWidth * MEME_MEASURE_PX) / px;
    const { lines, widest } = wrapWords(words, limit, measure);
    if ((lines.length <= MEME_MAX_LINES && widest <= limit) || px === floor) {
      return { fontPx: px, lines: lines.slice(0, MEME_MAX_KEPT_LINES) };
    }
  }
}

function wrapWords(words: string[], limit: number, measure: MemeMeasure) {
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  let widest = 0;
  for (const word of words) {
    const width = measure.word(word);
    const candidate = line ? lineWidth + measure.space + width : width;
    if (line && candidate > limit) {
      lines.push(line);
      widest = Math.max(widest, lineWidth);
      line = word;
      lineWidth = width;
    } else {
      line = line ? `${line} ${word}` : word;
      lineWidth = candidate;
    }
  }
  lines.push(line);
  return { lines, widest: Math.max(widest, lineWidth) };
}

/** A block of fitted lines: each line's slot top, in the block's own pixels. */
export const memeLineTops = (fit: MemeFit) =>
  fit.lines.map((_, index) => index * memeLineHeightPx(fit.fontPx));

export const memeBlockHeight = (fit: MemeFit) => fit.lines.length * memeLineHeightPx(fit.fontPx);
