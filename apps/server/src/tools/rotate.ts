import { join } from 'node:path';
import { rotateFieldsSchema, toolById } from '@refract/contracts';
import type { z } from 'zod';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
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
  async run({ input, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    const path = join(workDir, 'result.png');
    // Normalise to 0..359 clockwise; -90 is 270.
    const angle = ((fields.angle % 360) + 360) % 360;
    await inImageSlot(() => image.pipeline().rotate(angle).png().toFile(path), signal);
    return { path, contentType: 'image/png', filename: 'rotated-image.png' };
  },
};
