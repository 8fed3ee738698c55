import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compressFieldsSchema, KB, toolById } from '@refract/contracts';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { resultName } from '../lib/result-name.js';
import {
  compressedFormat,
  encodeCompressed,
  isLossy,
  type CompressedFormat,
} from '../media/image/compress-encode.js';
import { OUTPUTS } from '../media/image/formats.js';
import { keepsFrames, OWN_EXTENSIONS } from '../media/image/own-format.js';
import {
  imageTooLarge,
  loadImage,
  MAX_INPUT_PIXELS,
  toImageError,
  type LoadedImage,
} from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import { sniffFile } from '../media/image/sniff.js';
import { fitToSize } from '../media/image/target-size.js';
import type { ToolDefinition } from './tool-definition.js';

type Fields = z.output<typeof compressFieldsSchema>;

const EXTENSIONS: Record<CompressedFormat, readonly string[]> = {
  ...OWN_EXTENSIONS,
  heic: ['heic', 'heif'],
};

/** Formats whose animation a compressed result keeps. */
const ANIMATED_OUTPUTS = new Set<CompressedFormat>(['gif', 'webp']);

/** The size the user asked for (one side keeps the aspect ratio), before any target scaling. */
function askedSize(fields: Fields, width: number, height: number) {
  if (fields.width && fields.height) return { width: fields.width, height: fields.height };
  if (fields.width) return { width: fields.width, height: (height * fields.width) / width };
  if (fields.height) return { width: (width * fields.height) / height, height: fields.height };
  return { width, height };
}

const kb = (bytes: number) => `${Math.ceil(bytes / KB)} KB`;

/** A pipeline at the asked size times `scale`; a GIF or WebP animation keeps its frames. */
async function sizedPipeline(
  image: LoadedImage,
  fields: Fields,
  animated: boolean,
  signal: AbortSignal,
) {
  const meta = await inImageSlot(() => image.pipeline({ animated }).metadata(), signal);
  const frame = { width: meta.autoOrient.width, height: meta.pageHeight ?? meta.autoOrient.height };
  const asked = askedSize(fields, frame.width, frame.height);
  // The result is bounded as an input is, every frame counted: a 237-byte PNG asked for
  // 16384×16384 held a slot for a minute at 2 GB.
  const frames = animated ? image.pages : 1;
  if (asked.width * asked.height * frames > MAX_INPUT_PIXELS) throw imageTooLarge();
  const resized = Boolean(fields.width || fields.height);
  const dimensions = (scale: number) =>
    [asked.width, asked.height].map((side) => Math.max(1, Math.round(side * scale)));
  return {
    hasAlpha: meta.hasAlpha ?? false,
    shortSide: Math.min(asked.width, asked.height),
    dimensions,
    at(scale: number) {
      const pipeline = image.pipeline({ animated });
      if (!resized && scale === 1) return pipeline;
      const [width, height] = dimensions(scale);
      // Each frame of an animation is resized by width; a still to exactly the asked box.
      return animated
        ? pipeline.resize({ width })
        : pipeline.resize({ width, height, fit: 'fill' });
    },
  };
}

export const compressTool: ToolDefinition<Fields> = {
  id: 'compress',
  path: '/api/compress',
  summary: 'Compress an image in its own format (or to JPEG), optionally resized or to a size',
  errors: ['already_compact', 'target_unreachable', 'svg_not_compressible', 'image_too_large'],
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('compress').maxUploadBytes,
  fields: compressFieldsSchema,
  service: () => 'optimize-compress',
  async run({ input, inputName, inputBytes, fields, workDir, signal }) {
    if ((await sniffFile(input)) === 'svg')
      throw new AppError(
        422,
        'svg_not_compressible',
        'Compress works on pixel images. An SVG is drawing instructions in text, which no quality setting shrinks: convert it to PNG or WebP at the size you need, or keep it as it is.',
      );
    const image = await loadImage(input, signal);
    const keep = fields.keepFormat === 'true';
    const { hasAlpha: alpha } = await inImageSlot(() => image.pipeline().metadata(), signal);
    const format = compressedFormat(image.format, alpha ?? false, keep);
    const animated = keepsFrames(image) && ANIMATED_OUTPUTS.has(format);
    const sized = await sizedPipeline(image, fields, animated, signal);
    const extensions = EXTENSIONS[format];
    const path = join(workDir, `result.${extensions[0]}`);
    const encode = async (quality: number, scale: number) => {
      await encodeCompressed(sized.at(scale), format, quality, {
        path,
        hasAlpha: sized.hasAlpha,
        signal,
      });
      return (await stat(path)).size;
    };

    let quality = fields.quality;
    let scale = 1;
    if (fields.targetBytes) {
      const fit = await fitToSize({
        encode,
        targetBytes: fields.targetBytes,
        ceiling: fields.quality,
        lossy: isLossy(format, sized.hasAlpha),
        allowResize: fields.allowResize === 'true',
        shortSide: sized.shortSide,
      });
      if (!fit.fits)
        throw new AppError(
          422,
          'target_unreachable',
          `This image cannot be made as small as ${kb(fields.targetBytes)}: the smallest reached is ${kb(fit.smallest.bytes)} (quality ${fit.smallest.quality}${fit.smallest.scale < 1 ? ', shrunk' : ''}).${fields.allowResize === 'true' ? '' : ' Allow resizing, or aim higher.'}`,
          {},
          { smallestBytes: fit.smallest.bytes },
        );
      ({ quality, scale } = fit.best);
    } else {
      await encode(quality, 1);
    }

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
      headers: {
        'x-original-size': String(inputBytes),
        'x-compressed-size': String(outputBytes),
        'x-compress-quality': String(quality),
        ...(scale < 1 ? { 'x-compress-dimensions': sized.dimensions(scale).join('x') } : {}),
      },
    };
  },
};
