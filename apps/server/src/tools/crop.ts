import { cropFieldsSchema, toolById } from '@refract/contracts';
import type { z } from 'zod';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import type { ToolDefinition } from './tool-definition.js';

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export const cropTool: ToolDefinition<z.output<typeof cropFieldsSchema>> = {
  id: 'crop',
  path: '/api/crop',
  summary: 'Crop an image',
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('crop').maxUploadBytes,
  fields: cropFieldsSchema,
  service: () => 'modify-crop',
  async run({ input, inputName, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    const { width, height } = (await inImageSlot(() => image.pipeline().metadata(), signal))
      .autoOrient;
    // The browser's rectangle may poke out by a rounding error (or more): keep what lies inside.
    const left = clamp(Math.round(fields.x), 0, width - 1);
    const top = clamp(Math.round(fields.y), 0, height - 1);
    const area = {
      left,
      top,
      width: clamp(Math.round(fields.width), 1, width - left),
      height: clamp(Math.round(fields.height), 1, height - top),
    };
    const result = await writeOwnFormat(image, image.pipeline().extract(area), workDir, signal);
    return {
      ...result,
      filename: resultName(inputName, { ...result, suffix: 'cropped', fallback: 'cropped-image' }),
    };
  },
};
