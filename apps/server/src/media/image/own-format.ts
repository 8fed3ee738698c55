import { join } from 'node:path';
import type { Sharp } from 'sharp';
import { OUTPUTS } from './formats.js';
import type { LoadedImage } from './pipeline.js';
import { inImageSlot } from './slots.js';
import type { InputFormat } from './sniff.js';

/** A format an editing tool writes back: sharp encodes it; the first extension is preferred. */
type OwnFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff';

export const OWN_EXTENSIONS: Record<OwnFormat, readonly string[]> = {
  jpeg: ['jpg', 'jpeg', 'jpe', 'jfif'],
  png: ['png'],
  webp: ['webp'],
  gif: ['gif'],
  avif: ['avif'],
  tiff: ['tif', 'tiff'],
};

/** Formats whose frames are kept where a tool allows: an animated GIF or WebP stays animated. */
const ANIMATED = new Set<InputFormat>(['gif', 'webp']);

/**
 * What an editing tool writes for each input: its own format when sharp writes it; a HEIC
 * photo becomes a JPEG (browsers do not show HEIC, and it is a photo); any other format
 * (BMP, ICO, PSD, SVG, ...) becomes PNG, which keeps every pixel and alpha.
 */
export function ownFormat(input: InputFormat): OwnFormat {
  if (input in OWN_EXTENSIONS) return input as OwnFormat;
  return input === 'heif' ? 'jpeg' : 'png';
}

/** Whether a tool that can carry frames through should read every frame of this image. */
export const keepsFrames = (image: LoadedImage) => image.pages > 1 && ANIMATED.has(image.format);

/** JPEG re-encoded near the input's own quality, held between these (libjpeg's scale). */
const JPEG_QUALITY = { fallback: 90, min: 70, max: 92 };

/**
 * Encodes in `format` at settings that do not visibly degrade a photo nor inflate it: JPEG
 * with mozjpeg near the input's quality, lossless WebP/PNG kept lossless, PNG at full deflate.
 */
export function encodeOwn(pipeline: Sharp, format: OwnFormat, image?: LoadedImage): Sharp {
  switch (format) {
    case 'jpeg': {
      const q = image?.jpegQuality ?? JPEG_QUALITY.fallback;
      const quality = Math.min(JPEG_QUALITY.max, Math.max(JPEG_QUALITY.min, q));
      // JPEG has no alpha: a transparent area becomes white, not black.
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });
    }
    case 'webp':
      return pipeline.webp({ quality: 85, lossless: image?.webpLossless ?? false });
    case 'gif':
      return pipeline.gif();
    case 'avif':
      return pipeline.avif({ quality: 60 });
    case 'tiff':
      return pipeline.tiff({ compression: 'lzw' });
    default:
      return pipeline.png({ compressionLevel: 9 });
  }
}

export interface OwnFormatResult {
  path: string;
  contentType: string;
  extensions: readonly string[];
}

/**
 * Writes an editing tool's result in the input's own format (see ownFormat) to the work
 * directory: the one way every editor and transform saves what it made.
 */
export async function writeOwnFormat(
  image: LoadedImage,
  pipeline: Sharp,
  workDir: string,
  signal?: AbortSignal,
): Promise<OwnFormatResult> {
  const format = ownFormat(image.format);
  const extensions = OWN_EXTENSIONS[format];
  const path = join(workDir, `result.${extensions[0]}`);
  await inImageSlot(() => encodeOwn(pipeline, format, image).toFile(path), signal);
  return { path, contentType: OUTPUTS[format].contentType, extensions };
}
