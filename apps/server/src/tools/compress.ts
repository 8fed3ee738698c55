import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compressFieldsSchema, toolById } from '@refract/contracts';
import type { Sharp } from 'sharp';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { resultName } from '../lib/result-name.js';
import { OUTPUTS } from '../media/image/formats.js';
import { OWN_EXTENSIONS } from '../media/image/own-format.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import type { InputFormat } from '../media/image/sniff.js';
import type { ToolDefinition } from './tool-definition.js';

type Fields = z.output<typeof compressFieldsSchema>;
type CompressedFormat = 'jpeg' | 'png' | 'webp' | 'avif';

/**
 * The format a compressed image keeps: JPEG, PNG, WebP and AVIF their own; a HEIC photo
 * becomes JPEG; anything else (GIF, TIFF, BMP, ...) PNG when it has transparency, else JPEG.
 * With keepFormat off, JPEG as the spec has it.
 */
function compressedFormat(input: InputFormat, hasAlpha: boolean, keep: boolean): CompressedFormat {
  if (!keep) return 'jpeg';
  if (input === 'jpeg' || input === 'png' || input === 'webp' || input === 'avif') return input;
  return hasAlpha && input !== 'heif' ? 'png' : 'jpeg';
}

/**
 * Lossy for every format at the same 1–100 quality. PNG goes through palette quantisation
 * (libimagequant, as TinyPNG does), which keeps the alpha channel; `quality` is its target,
 * `effort` 10 its most careful palette search. JPEG uses mozjpeg's trellis quantisation.
 */
function encode(pipeline: Sharp, format: CompressedFormat, quality: number): Sharp {
  switch (format) {
    case 'png':
      return pipeline.png({ palette: true, quality, effort: 10, compressionLevel: 9 });
    case 'webp':
      return pipeline.webp({ quality, effort: 5 });
    case 'avif':
      // AVIF's scale runs lower than JPEG's for the same look; 80 → about AVIF's default 50.
      return pipeline.avif({ quality: Math.max(1, Math.round(quality * 0.65)) });
    default:
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });
  }
}

export const compressTool: ToolDefinition<Fields> = {
  id: 'compress',
  path: '/api/compress',
  summary: 'Compress an image in its own format (or to JPEG), optionally resized',
  errors: ['already_compact'],
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('compress').maxUploadBytes,
  fields: compressFieldsSchema,
  service: () => 'optimize-compress',
  async run({ input, inputName, inputBytes, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    let pipeline = image.pipeline();
    if (fields.width || fields.height) {
      // One side given: the other follows the aspect ratio. Both: exactly that size.
      pipeline = pipeline.resize({
        width: fields.width,
        height: fields.height,
        fit: fields.width && fields.height ? 'fill' : 'inside',
      });
    }
    const { hasAlpha = false } = await inImageSlot(() => image.pipeline().metadata(), signal);
    const format = compressedFormat(image.format, hasAlpha, fields.keepFormat === 'true');
    const extensions = OWN_EXTENSIONS[format];
    const path = join(workDir, `result.${extensions[0]}`);
    await inImageSlot(() => encode(pipeline, format, fields.quality).toFile(path), signal);
    const outputBytes = (await stat(path)).size;
    // Never more bytes than were given: nothing is charged, and the message says what to try.
    if (outputBytes >= inputBytes)
      throw new AppError(
        422,
        'already_compact',
        'This image is already compact: at this quality it would not get smaller. Try a lower quality or a smaller width.',
      );
    return {
      path,
      contentType: OUTPUTS[format].contentType,
      filename: resultName(inputName, {
        extensions,
        suffix: 'compressed',
        fallback: 'compressed-image',
      }),
      headers: { 'x-original-size': String(inputBytes), 'x-compressed-size': String(outputBytes) },
    };
  },
};
