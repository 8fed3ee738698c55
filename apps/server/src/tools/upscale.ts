import { toolById, upscaleFieldsSchema } from '@refract/contracts';
import { AppError } from '../lib/app-error.js';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * The result's bound: 64 megapixels, so a 16 MP phone photo doubles (to 64 MP) and the work
 * stays bounded by pixels, not by the upload's bytes (the
 * 10 MB of every editing tool; a 5 MB JPEG may be 4 or 24 MP).
 */
export const MAX_UPSCALED_PIXELS = 64_000_000;

export const upscaleTool: ToolDefinition<Record<string, never>> = {
  id: 'upscale',
  path: '/api/upscale',
  summary: 'Upscale an image',
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('upscale').maxUploadBytes,
  fields: upscaleFieldsSchema,
  service: () => 'optimize-upscale',
  async run({ input, inputName, workDir, signal }) {
    const image = await loadImage(input, signal);
    // Width and height as displayed, after the EXIF orientation is applied.
    const { width, height } = (await inImageSlot(() => image.pipeline().metadata(), signal))
      .autoOrient;
    if (width * height * 4 > MAX_UPSCALED_PIXELS)
      throw new AppError(
        422,
        'image_too_large',
        `Upscaling doubles each side: the result may be at most ${MAX_UPSCALED_PIXELS / 1_000_000} megapixels, so the image at most ${MAX_UPSCALED_PIXELS / 4_000_000}`,
      );
    const pipeline = image.pipeline().resize(width * 2, height * 2, { kernel: 'lanczos3' });
    const result = await writeOwnFormat(image, pipeline, workDir, signal);
    return {
      ...result,
      filename: resultName(inputName, {
        ...result,
        suffix: 'upscaled',
        fallback: 'upscaled-image',
      }),
    };
  },
};
