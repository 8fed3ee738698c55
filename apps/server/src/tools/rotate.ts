import { rotateFieldsSchema, toolById } from '@refract/contracts';
import type { z } from 'zod';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import type { ToolDefinition } from './tool-definition.js';

export const rotateTool: ToolDefinition<z.output<typeof rotateFieldsSchema>> = {
  id: 'rotate',
  path: '/api/rotate',
  summary: 'Rotate an image',
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('rotate').maxUploadBytes,
  fields: rotateFieldsSchema,
  service: () => 'modify-rotate',
  async run({ input, inputName, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    // Normalise to 0..359 clockwise; -90 is 270.
    const angle = ((fields.angle % 360) + 360) % 360;
    const result = await writeOwnFormat(image, image.pipeline().rotate(angle), workDir, signal);
    return {
      ...result,
      filename: resultName(inputName, { ...result, suffix: 'rotated', fallback: 'rotated-image' }),
    };
  },
};
