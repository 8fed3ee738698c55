import { join } from 'node:path';
import { toolById, upscaleFieldsSchema } from '@refract/contracts';
import {
  imageTooLarge,
  loadImage,
  MAX_INPUT_PIXELS,
  toImageError,
} from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import type { ToolDefinition } from './tool-definition.js';

export const upscaleTool: ToolDefinition<Record<string, never>> = {
  id: 'upscale',
  path: '/api/upscale',
  summary: 'Upscale an image',
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('upscale').maxUploadBytes,
  fields: upscaleFieldsSchema,
  service: () => 'optimize-upscale',
  async run({ input, workDir, signal }) {
    const image = await loadImage(input, signal);
    // Width and height as displayed, after the EXIF orientation is applied.
    const { width, height } = (await inImageSlot(() => image.pipeline().metadata(), signal))
      .autoOrient;
    // The result, four times the pixels, is held to the same bound as inputs.
    if (width * height * 4 > MAX_INPUT_PIXELS) throw imageTooLarge();
    const path = join(workDir, 'result.png');
    await inImageSlot(
      () =>
        image
          .pipeline()
          .resize(width * 2, height * 2, { kernel: 'lanczos3' })
          .png()
          .toFile(path),
      signal,
    );
    return { path, contentType: 'image/png', filename: 'upscaled-image.png' };
  },
};
