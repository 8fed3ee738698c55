import { stat } from 'node:fs/promises';
import { planResize, resizeFieldsSchema, toolById, type ResizeFields } from '@refract/contracts';
import {
  imageTooLarge,
  loadImage,
  MAX_INPUT_PIXELS,
  toImageError,
} from '../media/image/pipeline.js';
import { resultName } from '../lib/result-name.js';
import { keepsFrames, ownFormat, writeOwnFormat } from '../media/image/own-format.js';
import { inImageSlot } from '../media/image/slots.js';
import type { ToolDefinition } from './tool-definition.js';

/** libwebp's largest side. */
const WEBP_MAX_SIDE = 16_383;

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
    const animated = keepsFrames(image);
    // Width and height as displayed, after the EXIF orientation is applied.
    const source = (await inImageSlot(() => image.pipeline().metadata(), signal)).autoOrient;
    const plan = planResize(source, fields);
    // Every frame of an animation counts against the bound, as an input's would.
    const frames = animated ? image.pages : 1;
    if (plan.width * plan.height * frames > MAX_INPUT_PIXELS) throw imageTooLarge();
    if (ownFormat(image.format) === 'webp' && Math.max(plan.width, plan.height) > WEBP_MAX_SIDE)
      throw imageTooLarge();

    const resized = image.pipeline({ animated }).resize(plan.width, plan.height, {
      fit: plan.fit,
      position: 'centre',
      background: fields.background,
    });
    const { path, contentType, extensions } = await writeOwnFormat(image, resized, workDir, signal);
    const outputBytes = (await stat(path)).size;
    return {
      path,
      contentType,
      filename: resultName(inputName, {
        extensions,
        suffix: `${plan.width}x${plan.height}`,
        fallback: 'resized-image',
      }),
      headers: {
        'x-original-size': String(inputBytes),
        'x-result-size': String(outputBytes),
        'x-original-dimensions': `${source.width}x${source.height}`,
        'x-result-dimensions': `${plan.width}x${plan.height}`,
      },
    };
  },
};
