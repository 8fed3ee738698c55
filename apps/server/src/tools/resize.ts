import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { planResize, resizeFieldsSchema, toolById, type ResizeFields } from '@refract/contracts';
import type { Sharp } from 'sharp';
import {
  imageTooLarge,
  loadImage,
  MAX_INPUT_PIXELS,
  toImageError,
} from '../media/image/pipeline.js';
import { OUTPUTS } from '../media/image/formats.js';
import type { InputFormat } from '../media/image/sniff.js';
import { inImageSlot } from '../media/image/slots.js';
import { clientName } from './output-name.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * The inputs written back in their own format (sharp writes them; content types from the shared
 * OUTPUTS table), with the extensions a name may spell them with; any other input becomes PNG.
 */
const KEPT: Partial<Record<InputFormat, string[]>> = {
  jpeg: ['jpg', 'jpeg', 'jpe'],
  png: ['png'],
  webp: ['webp'],
  gif: ['gif'],
  avif: ['avif'],
  tiff: ['tif', 'tiff'],
};

/** Formats whose frames are kept: an animated GIF or WebP stays animated. */
const ANIMATED = new Set<InputFormat>(['gif', 'webp']);

/** libwebp's largest side. */
const WEBP_MAX_SIDE = 16_383;

function encode(pipeline: Sharp, format: InputFormat): Sharp {
  switch (format) {
    case 'jpeg':
      // JPEG has no alpha: a transparent padding becomes white, not black.
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 90, mozjpeg: true });
    case 'webp':
      return pipeline.webp({ quality: 90 });
    case 'gif':
      return pipeline.gif();
    case 'avif':
      return pipeline.avif({ quality: 70 });
    case 'tiff':
      return pipeline.tiff({ compression: 'lzw' });
    default:
      return pipeline.png();
  }
}

/**
 * `IMG_1054.jpg` → `IMG_1054-1080x1080.jpg`; a name with nothing usable left gives
 * `resized-image.<ext>`.
 */
export function resizedName(
  original: string | undefined,
  extensions: string[],
  size: { width: number; height: number },
): string {
  const { stem, extension: ownExtension } = clientName(original);
  // The name's own spelling of the extension (.JPEG, .jpg) when it is one of the format's.
  const extension = extensions.includes(ownExtension.toLowerCase()) ? ownExtension : extensions[0]!;
  if (!stem) return `resized-image.${extension}`;
  return `${stem}-${size.width}x${size.height}.${extension}`;
}

export const resizeTool: ToolDefinition<ResizeFields> = {
  id: 'resize',
  path: '/api/resize',
  summary: 'Resize an image by pixels or percentage',
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('resize').maxUploadBytes,
  fields: resizeFieldsSchema,
  service: () => 'modify-resize',
  async run({ input, inputName, inputBytes, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    const animated = image.pages > 1 && ANIMATED.has(image.format);
    // Width and height as displayed, after the EXIF orientation is applied.
    const source = (await inImageSlot(() => image.pipeline().metadata(), signal)).autoOrient;
    const plan = planResize(source, fields);
    const format = KEPT[image.format] ? image.format : 'png';
    const extensions = KEPT[format]!;
    // Every frame of an animation counts against the bound, as an input's would.
    const frames = animated ? image.pages : 1;
    if (plan.width * plan.height * frames > MAX_INPUT_PIXELS) throw imageTooLarge();
    if (format === 'webp' && Math.max(plan.width, plan.height) > WEBP_MAX_SIDE)
      throw imageTooLarge();

    const resized = image.pipeline({ animated }).resize(plan.width, plan.height, {
      fit: plan.fit,
      position: 'centre',
      background: fields.background,
    });
    const path = join(workDir, `result.${extensions[0]}`);
    await inImageSlot(() => encode(resized, format).toFile(path), signal);
    const outputBytes = (await stat(path)).size;
    return {
      path,
      contentType: OUTPUTS[format as keyof typeof OUTPUTS].contentType,
      filename: resizedName(inputName, extensions, plan),
      headers: {
        'x-original-size': String(inputBytes),
        'x-result-size': String(outputBytes),
        'x-original-dimensions': `${source.width}x${source.height}`,
        'x-result-dimensions': `${plan.width}x${plan.height}`,
      },
    };
  },
};
