import {
  largestUprightRect,
  normalisedAngle,
  rotateFieldsSchema,
  toolById,
} from '@refract/contracts';
import type { z } from 'zod';
import { resultName } from '../lib/result-name.js';
import { ownFormat, writeOwnFormat } from '../media/image/own-format.js';
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
  async run({ input, inputName, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    const angle = normalisedAngle(fields.angle);
    // EXIF orientation first (the pipeline's), then the mirroring, then the turn (sharp's order).
    const pipeline = image.pipeline();
    if (fields.flipHorizontal === 'true') pipeline.flop();
    if (fields.flipVertical === 'true') pipeline.flip();
    // Transparent corners where the written format keeps alpha; JPEG's are white. (sharp
    // flattens before it turns, so the colour is chosen here, not flattened afterwards.)
    const transparent = fields.background.toLowerCase() === 'transparent';
    const keepsAlpha = ownFormat(image.format) !== 'jpeg';
    // A quarter turn uncovers nothing: an opaque image stays without alpha (and as small).
    if (transparent && keepsAlpha && angle % 90 !== 0) pipeline.ensureAlpha();
    pipeline.rotate(angle, {
      background: !transparent ? fields.background : keepsAlpha ? '#00000000' : '#ffffff',
    });
    if (fields.corners === 'crop' && angle % 90 !== 0) {
      const { width, height } = (await inImageSlot(() => image.pipeline().metadata(), signal))
        .autoOrient;
      const rect = largestUprightRect(width, height, angle);
      // Whole pixels a pixel inside the rectangle: sharp's turned size may round the other
      // way, and the edge's blended pixels would show a sliver of the corners.
      const left = Math.ceil(rect.left) + 1;
      const top = Math.ceil(rect.top) + 1;
      pipeline.extract({
        left,
        top,
        width: Math.max(1, Math.floor(rect.left + rect.width) - 1 - left),
        height: Math.max(1, Math.floor(rect.top + rect.height) - 1 - top),
      });
    }
    const result = await writeOwnFormat(image, pipeline, workDir, signal);
    return {
      ...result,
      filename: resultName(inputName, { ...result, suffix: 'rotated', fallback: 'rotated-image' }),
    };
  },
};
