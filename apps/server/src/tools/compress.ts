import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compressFieldsSchema, toolById } from '@refract/contracts';
import type { z } from 'zod';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import type { ToolDefinition } from './tool-definition.js';

type Fields = z.output<typeof compressFieldsSchema>;

export const compressTool: ToolDefinition<Fields> = {
  id: 'compress',
  path: '/api/compress',
  summary: 'Compress or resize an image',
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('compress').maxUploadBytes,
  fields: compressFieldsSchema,
  service: () => 'optimize-compress',
  async run({ input, inputBytes, fields, workDir, signal }) {
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
    // "Keep format" for png and webp (beyond the spec); everything else becomes JPEG.
    const keep =
      fields.keepFormat === 'true' && (image.format === 'png' || image.format === 'webp')
        ? image.format
        : null;
    const quality = fields.quality;
    const [extension, contentType] =
      keep === 'png'
        ? ['png', 'image/png']
        : keep === 'webp'
          ? ['webp', 'image/webp']
          : ['jpg', 'image/jpeg'];
    const path = join(workDir, `result.${extension}`);
    const encoded =
      keep === 'png'
        ? pipeline.png({ quality, palette: quality < 100, compressionLevel: 9, effort: 7 })
        : keep === 'webp'
          ? pipeline.webp({ quality })
          : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });
    await inImageSlot(() => encoded.toFile(path), signal);
    const outputBytes = (await stat(path)).size;
    return {
      path,
      contentType,
      filename: `compressed-image.${extension}`,
      headers: { 'x-original-size': String(inputBytes), 'x-compressed-size': String(outputBytes) },
    };
  },
};
