import { join } from 'node:path';
import { convertFieldsSchema, toolById } from '@refract/contracts';
import { AppError } from '../lib/app-error.js';
import { resultName } from '../lib/result-name.js';
import { canWrite, OUTPUTS } from '../media/image/formats.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { ANIMATED_OUTPUTS, writeImage } from './image-output.js';
import type { ToolDefinition } from './tool-definition.js';

export const convertTool: ToolDefinition<{
  format: (typeof convertFieldsSchema)['_output']['format'];
}> = {
  id: 'convert',
  path: '/api/convert',
  summary: 'Convert an image to another format',
  produces: ['image/*', 'application/pdf', 'application/postscript', 'video/*'],
  // media_too_large: an animation made a video runs longer than MEDIA_MAX_DURATION.
  errors: ['unsupported_output_format', 'media_too_large'],
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('convert').maxUploadBytes,
  fields: convertFieldsSchema,
  service: ({ format }) =>
    format === 'jpg' || format === 'jpeg' ? 'convert-to-jpg' : 'convert-from-jpg',
  precheck({ format }, engines) {
    if (!canWrite(format, engines)) {
      const reason = OUTPUTS[format].reason ?? 'Its engine is not installed on this server';
      throw new AppError(
        422,
        'unsupported_output_format',
        `Cannot convert to ${format}: ${reason}`,
      );
    }
  },
  async run({ input, inputName, fields, workDir, config, signal }) {
    const image = await loadImage(input, signal);
    const animated = image.pages > 1 && ANIMATED_OUTPUTS.has(fields.format);
    const { extension, contentType } = OUTPUTS[fields.format];
    const path = join(workDir, `result.${extension}`);
    await writeImage(image.pipeline({ animated }), fields.format, path, {
      animated,
      config,
      workDir,
      signal,
    });
    return {
      path,
      contentType,
      filename: resultName(inputName, { extensions: [extension], fallback: 'converted' }),
    };
  },
};
