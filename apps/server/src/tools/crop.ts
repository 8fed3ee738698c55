import { cropFieldsSchema, toolById } from '@refract/contracts';
import type { z } from 'zod';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import type { ToolDefinition } from './tool-definition.js';

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

type Rect = { left: number; top: number; width: number; height: number };
type CropFields = z.output<typeof cropFieldsSchema>;

/**
 * Where a rectangle of the editor's view (the image mirrored, then turned clockwise) lies in
 * the upright source of `size`: the turn undone, then the mirroring (its own inverse).
 */
function inSource(view: Rect, fields: CropFields, size: { width: number; height: number }) {
  const { width: W, height: H } = size;
  const { left, top, width, height } = view;
  const unturned: Rect =
    fields.turn === 90
      ? { left: top, top: H - (left + width), width: height, height: width }
      : fields.turn === 180
        ? { left: W - (left + width), top: H - (top + height), width, height }
        : fields.turn === 270
          ? { left: W - (top + height), top: left, width: height, height: width }
          : view;
  return {
    ...unturned,
    left: fields.flipHorizontal === 'true' ? W - (unturned.left + unturned.width) : unturned.left,
    top: fields.flipVertical === 'true' ? H - (unturned.top + unturned.height) : unturned.top,
  };
}

export const cropTool: ToolDefinition<CropFields> = {
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
    const oriented = (await inImageSlot(() => image.pipeline().metadata(), signal)).autoOrient;
    // A quarter turn swaps the sides the rectangle is measured in.
    const sideways = fields.turn % 180 !== 0;
    const width = sideways ? oriented.height : oriented.width;
    const height = sideways ? oriented.width : oriented.height;
    // The browser's rectangle may poke out by a rounding error (or more): keep what lies inside.
    const left = clamp(Math.round(fields.x), 0, width - 1);
    const top = clamp(Math.round(fields.y), 0, height - 1);
    const area = {
      left,
      top,
      width: clamp(Math.round(fields.width), 1, width - left),
      height: clamp(Math.round(fields.height), 1, height - top),
    };
    // Cut first (less to turn), then mirror and turn the cut as the editor showed the image.
    const pipeline = image.pipeline().extract(inSource(area, fields, oriented));
    if (fields.flipHorizontal === 'true') pipeline.flop();
    if (fields.flipVertical === 'true') pipeline.flip();
    if (fields.turn !== 0) pipeline.rotate(fields.turn);
    const result = await writeOwnFormat(image, pipeline, workDir, signal);
    return {
      ...result,
      filename: resultName(inputName, { ...result, suffix: 'cropped', fallback: 'cropped-image' }),
    };
  },
};
