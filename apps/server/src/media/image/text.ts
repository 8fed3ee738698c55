import { createRequire } from 'node:module';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error.js';
import { inImageSlot, TEXT_RENDER_MS, withTimeLimit } from './slots.js';

/**
 * Text drawn into images with fonts that ship in npm packages (SIL Open Font License), never
 * the host's: the same output on every server. libvips lays text out with Pango, so Arabic is
 * shaped right to left and CJK falls back per character across the families below.
 */
const require = createRequire(import.meta.url);
const FONT_FILES = [
  '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
  '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  '@expo-google-fonts/anton/400Regular/Anton_400Regular.ttf',
].map((file) => require.resolve(file));

export const FONTS = {
  /** Latin first, then Arabic, Japanese and Simplified Chinese for what Latin lacks. */
  text: 'Noto Sans, Noto Sans Arabic, Noto Sans JP, Noto Sans SC',
  /** An Impact-style face for memes, with the same fallbacks. */
  meme: 'Anton, Noto Sans Arabic, Noto Sans JP, Noto Sans SC',
} as const;

/**
 * About how many pixels one block of text may cover: a font size follows the image's size, so
 * without a bound 200 characters at a huge size would be gigapixels.
 */
export const MAX_TEXT_PIXELS = 25_000_000;
/** An outline is at most this share of the font size, and this many pixels: its blur's cost. */
const MAX_OUTLINE_RATIO = 1 / 10;
export const MAX_OUTLINE_PX = 48;

/**
 * The bounds of text drawn on a `width`×`height` image, whatever the request derived: a font
 * no larger than the image's longer side, and a block of text of at most four times the image's
 * pixels (at least 1 MP, so small images keep their text as the preview showed it).
 */
export function textBoundsFor({ width, height }: { width: number; height: number }) {
  return {
    maxSizePx: Math.max(1, width, height),
    maxPixels: Math.min(MAX_TEXT_PIXELS, Math.max(1_000_000, 4 * width * height)),
  };
}

/**
 * Cairo draws at most 32767 px a side, and says "invalid value (typically too big)" past it:
 * one line of 200 characters at the font a large image allows is wider than that.
 */
const PAST_CAIRO_LIMIT = /typically too big/i;

/** Text that cannot be drawn on this image at this size: the user can make it smaller or shorter. */
export const textTooLarge = () =>
  new AppError(
    422,
    'text_too_large',
    'The text is too large for this image: make it smaller or shorter',
  );

let registered: Promise<void> | undefined;

/** libvips adds a `fontfile` to its fontconfig set for the life of the process: once is enough. */
function registerFonts(): Promise<void> {
  registered ??= (async () => {
    for (const fontfile of FONT_FILES) {
      await inImageSlot(() =>
        sharp({ text: { text: '.', fontfile, font: 'Noto Sans 8' } }).toBuffer(),
      );
    }
  })();
  return registered;
}

/** User text as Pango markup content: `<`, `>` and `&` would otherwise be markup. */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface TextImage {
  png: Buffer;
  width: number;
  height: number;
  /** Pixels of outline around the glyphs' ink on each side (0 without an outline). */
  inset?: number;
}

export interface TextOptions {
  text: string;
  font: keyof typeof FONTS;
  /** Em size in pixels (Pango points at 72 dpi are pixels). */
  sizePx: number;
  color: string;
  /** Lines wrap at this width, centred. */
  wrapWidth?: number;
  /** A dark outline this many pixels wide around each glyph, for text on any background. */
  outlinePx?: number;
  outlineColor?: string;
  /** Pixels the block may cover (the font shrinks to fit); MAX_TEXT_PIXELS at most. */
  maxPixels?: number;
  /** Aborts the render at its next step (the client went away). */
  signal?: AbortSignal;
}

/**
 * Renders one block of text to a transparent PNG, with an optional outline, within
 * TEXT_RENDER_MS (else 504 processing_timeout). Sizes are bounded here whatever the caller
 * asked: Pango's work grows with the font size and the outline's blur with its width.
 */
export function renderText(options: TextOptions): Promise<TextImage> {
  return withTimeLimit(TEXT_RENDER_MS, options.signal, (signal) => render(options, signal));
}

/** The font size text is first measured at, small enough that any allowed text draws in a moment. */
const PROBE_SIZE_PX = 16;

/** Draws text as RGBA at `size` (px), wrapped at `wrapWidth` when given, in an image slot. */
function drawText(options: TextOptions, size: number, signal: AbortSignal, wrapWidth?: number) {
  return inImageSlot(
    () =>
      sharp({
        text: {
          text: `<span foreground="${options.color}">${escapeMarkup(options.text)}</span>`,
          font: `${FONTS[options.font]} ${size}`,
          dpi: 72,
          rgba: true,
          align: 'centre',
          width: wrapWidth ? Math.max(1, Math.round(wrapWidth)) : undefined,
          wrap: 'word-char',
        },
      })
        .timeout({ seconds: TEXT_RENDER_MS / 1000 })
        .png()
        .toBuffer({ resolveWithObject: true }),
    signal,
  ).catch((err: unknown) => {
    // Otherwise it would reach the tool as an engine error, answered as a damaged image.
    throw PAST_CAIRO_LIMIT.test(String((err as Error)?.message)) ? textTooLarge() : err;
  });
}

/**
 * The largest size up to `sizePx` at which the text, outline included, covers at most
 * `maxPixels`. Glyphs are not squares (one U+FDFD is nine times as wide as high), so the text is
 * drawn once, small, and its real size scaled: its ink grows with the size, and so does the
 * outline's room on each side (twice the outline, at most a tenth of the size).
 */
async function boundedSize(options: TextOptions, maxPixels: number, signal: AbortSignal) {
  const { info } = await drawText(options, PROBE_SIZE_PX, signal);
  const room = options.outlinePx ? 4 * MAX_OUTLINE_RATIO : 0;
  // Width and height at a size of 1 px, with the outline's room on both sides.
  const perPx = (side: number) => Math.max(1, side) / PROBE_SIZE_PX + room;
  // Hinting and line spacing do not grow exactly with the size: a few per cent kept in hand.
  const bound = 0.95 * Math.sqrt(maxPixels / (perPx(info.width) * perPx(info.height)));
  return Math.max(1, Math.floor(Math.min(options.sizePx, bound) * 10) / 10);
}

async function render(options: TextOptions, signal: AbortSignal): Promise<TextImage> {
  await registerFonts();
  const maxPixels = Math.min(MAX_TEXT_PIXELS, options.maxPixels ?? MAX_TEXT_PIXELS);
  const size = await boundedSize(options, maxPixels, signal);
  const { data, info } = await drawText(options, size, signal, options.wrapWidth);
  const outline = Math.round(
    Math.min(options.outlinePx ?? 0, size * MAX_OUTLINE_RATIO, MAX_OUTLINE_PX),
  );
  if (outline < 1) return { png: data, width: info.width, height: info.height };
  const color = options.outlineColor ?? '#000000';
  return addOutline(data, info.width, info.height, outline, color, signal);
}

/**
 * Steps between pipelines pass PNG, not raw pixels: a block of text's raw alpha is up to 25 MB a
 * step, and Buffers that large make V8 collect garbage on the event loop. Mostly flat, it
 * compresses to a few per cent at the fastest level, in libvips's threads.
 */
const FAST_LOSSLESS = { compressionLevel: 1, adaptiveFiltering: false } as const;

/**
 * Grows the glyphs' alpha by about `radius` pixels into a solid layer behind the text. A blur
 * whose edge is then steepened costs the same at any radius, unlike a morphological dilation.
 */
async function addOutline(
  png: Buffer,
  width: number,
  height: number,
  radius: number,
  color: string,
  signal: AbortSignal,
): Promise<TextImage> {
  // Room for the blur's tail, which the steep edge turns into outline.
  const pad = 2 * radius;
  const padded = { width: width + 2 * pad, height: height + 2 * pad };
  const transparent = { r: 0, g: 0, b: 0, alpha: 0 };
  const blurred = await inImageSlot(
    () =>
      sharp(png)
        .extend({ top: pad, bottom: pad, left: pad, right: pad, background: transparent })
        .extractChannel(3)
        .blur(Math.max(0.3, radius * 0.6))
        .png(FAST_LOSSLESS)
        .toBuffer(),
    signal,
  );
  // The edge is steepened by libvips (×10, clamped to 255 as it is cast back to bytes): a loop
  // here ran on the event loop, for a quarter of a second on a large block. A pipeline of its
  // own, as sharp would apply `linear` before the blur.
  const mask = await inImageSlot(
    () => sharp(blurred).linear(10, 0).toColourspace('b-w').png(FAST_LOSSLESS).toBuffer(),
    signal,
  );
  const layer = await inImageSlot(
    () =>
      sharp({ create: { ...padded, channels: 3, background: color } })
        .joinChannel(mask)
        .png()
        .toBuffer(),
    signal,
  );
  const outlined = await inImageSlot(
    () =>
      sharp(layer)
        .composite([{ input: png, left: pad, top: pad }])
        .png()
        .toBuffer(),
    signal,
  );
  return { png: outlined, ...padded, inset: pad };
}

/**
 * The ink width in pixels of each text at `sizePx` (libvips crops rendered text to its ink),
 * one render per distinct text, within TEXT_RENDER_MS in all.
 */
export function measureInkWidths(
  texts: string[],
  font: keyof typeof FONTS,
  sizePx: number,
  signal?: AbortSignal,
): Promise<Map<string, number>> {
  return withTimeLimit(TEXT_RENDER_MS, signal, async (limited) => {
    await registerFonts();
    const widths = new Map<string, number>();
    for (const text of new Set(texts)) {
      const { info } = await inImageSlot(
        () =>
          sharp({ text: { text: escapeMarkup(text), font: `${FONTS[font]} ${sizePx}`, dpi: 72 } })
            .raw()
            .toBuffer({ resolveWithObject: true }),
        limited,
      );
      widths.set(text, info.width);
    }
    return widths;
  });
}
