import sharp from 'sharp';
import {
  logoBox,
  MAX_LOGO_BYTES,
  MAX_LOGO_PIXELS,
  markWidth,
  outlineColorFor,
  WATERMARK_BASE_FONT_PX,
  type Box,
  type WatermarkFields,
} from '@refract/contracts';
import { AppError } from '../lib/app-error.js';
import type { ExtraFile } from '../plugins/uploads.js';
import { sniffFile } from '../media/image/sniff.js';
import { inImageSlot } from '../media/image/slots.js';
import { MAX_TEXT_PIXELS, renderText, textBoundsFor, type TextImage } from '../media/image/text.js';

/**
 * The mark itself, unturned: text drawn with Pango, or the uploaded logo scaled. `box` is its
 * drawn size without the text's outline, which the shared geometry places (as the preview does).
 */
export interface Mark {
  overlay: TextImage;
  box: Box;
}

/** Outline width as a share of the font size: thin, but visible on any background. */
const OUTLINE_RATIO = 1 / 20;
const FACES = { sans: 'text', condensed: 'meme' } as const;
const LOGO_FORMATS = new Set(['png', 'jpeg', 'webp']);

export const logoTooLarge = () =>
  new AppError(413, 'logo_too_large', 'The logo is larger than the 5 MB limit');

/**
 * The text's render options on a `width`×`height` image, given its size at 40 px (`probe`):
 * `size` of the image's width, or for older clients 40 px × scale of the preview's width; held
 * to the image (`scale=3 previewWidth=12` once asked for a font ten times the image's width).
 */
export function watermarkText(
  fields: WatermarkFields,
  image: Box,
  probe: Box = { width: WATERMARK_BASE_FONT_PX, height: WATERMARK_BASE_FONT_PX },
) {
  const bounds = textBoundsFor(image);
  const width = markWidth(fields, image, probe.width);
  const sizePx = Math.min(bounds.maxSizePx, (WATERMARK_BASE_FONT_PX * width) / probe.width);
  return {
    text: fields.text,
    font: FACES[fields.font],
    sizePx,
    color: fields.color,
    outlinePx: sizePx * OUTLINE_RATIO,
    outlineColor: outlineColorFor(fields.color),
    maxPixels: bounds.maxPixels,
  };
}

/** The text measured at 40 px, then drawn at the size the request asks of this image. */
export async function textMark(
  fields: WatermarkFields,
  image: Box,
  signal: AbortSignal,
): Promise<Mark> {
  const options = { text: fields.text, font: FACES[fields.font], color: fields.color, signal };
  const probe = await renderText({ ...options, sizePx: WATERMARK_BASE_FONT_PX });
  const wanted = watermarkText(fields, image, probe);
  const overlay = await renderText({ ...wanted, signal });
  const factor = wanted.sizePx / WATERMARK_BASE_FONT_PX;
  return { overlay, box: { width: probe.width * factor, height: probe.height * factor } };
}

/** Not a PNG, JPEG or WebP, or a damaged one: one code, so a client tells the user the same. */
const invalidLogo = (why: string) => new AppError(422, 'invalid_logo', why);

/**
 * The `logo` part as the mark: PNG (its transparency kept), JPEG or WebP, at most
 * MAX_LOGO_PIXELS, scaled to the width the request asks of this image.
 */
export async function logoMark(
  path: string | undefined,
  fields: WatermarkFields,
  image: Box,
  signal: AbortSignal,
): Promise<Mark> {
  if (!path) throw new AppError(400, 'no_file', 'Choose a logo image (file field "logo")');
  const format = await sniffFile(path);
  if (!format || !LOGO_FORMATS.has(format))
    throw invalidLogo('The logo must be a PNG, JPEG or WebP image');
  const open = () => sharp(path, { limitInputPixels: MAX_LOGO_PIXELS, failOn: 'error' });
  // The header alone, without the pixel limit, so that a huge logo is told as too large.
  const meta = await inImageSlot(() => sharp(path).metadata(), signal).catch(() => {
    throw invalidLogo('The logo image is damaged and cannot be read');
  });
  const natural = meta.autoOrient;
  if (natural.width * natural.height > MAX_LOGO_PIXELS)
    throw new AppError(413, 'logo_too_large', 'The logo has more than 16 megapixels');
  const box = logoBox(natural, markWidth(fields, image, natural.width), image);
  // A huge image's whole-width logo is drawn at most as large as a block of text may be.
  const shrink = Math.min(1, Math.sqrt(MAX_TEXT_PIXELS / (box.width * box.height)));
  const drawn = {
    width: Math.max(1, Math.round(box.width * shrink)),
    height: Math.max(1, Math.round(box.height * shrink)),
  };
  const png = await inImageSlot(
    () =>
      open()
        .autoOrient()
        .resize(drawn.width, drawn.height, { fit: 'fill' })
        .ensureAlpha()
        .png()
        .toBuffer(),
    signal,
  ).catch((err: unknown) => {
    if (signal.aborted) throw err;
    throw invalidLogo('The logo image is damaged and cannot be read');
  });
  return { overlay: { png, ...drawn }, box: drawn };
}

export const LOGO_FILE: ExtraFile = {
  field: 'logo',
  maxBytes: MAX_LOGO_BYTES,
  tooLarge: logoTooLarge,
  // logoMark refuses a logo mark without it (400 no_file); the document says so.
  requiredWhen: { field: 'mark', equals: 'logo' },
};
