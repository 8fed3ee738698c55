import { join } from 'node:path';
import { blurFaceFieldsSchema, toolById, type BlurArea } from '@refract/contracts';
import type { z } from 'zod';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import type { ToolDefinition } from './tool-definition.js';

/** The spec's 10 px blur, grown with the box so a large face is as unreadable as a small one. */
const MIN_SIGMA = 10;
const SIGMA_PER_BOX_SIDE = 1 / 5;
const MAX_SIGMA = 1000;

/** Moves an area inside a `width`×`height` image, keeping its size where it fits. */
export function clampArea(area: BlurArea, width: number, height: number) {
  const w = Math.min(Math.round(area.width), width);
  const h = Math.min(Math.round(area.height), height);
  return {
    left: Math.min(Math.round(area.x), width - w),
    top: Math.min(Math.round(area.y), height - h),
    width: w,
    height: h,
  };
}

export const blurFaceTool: ToolDefinition<z.output<typeof blurFaceFieldsSchema>> = {
  id: 'blurFace',
  path: '/api/blur-face',
  summary: 'Blur areas of an image (faces)',
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('blurFace').maxUploadBytes,
  fields: blurFaceFieldsSchema,
  service: () => 'security-blur-face',
  async run({ input, fields, workDir }) {
    const image = await loadImage(input);
    const { width, height } = (await image.pipeline().metadata()).autoOrient;
    // Each area is blurred on its own, from its own pixels only; the rest stays untouched.
    const patches = await Promise.all(
      fields.areas.map(async (area) => {
        const box = clampArea(area, width, height);
        const sigma = Math.min(
          MAX_SIGMA,
          Math.max(MIN_SIGMA, Math.max(box.width, box.height) * SIGMA_PER_BOX_SIDE),
        );
        const patch = await image.pipeline().extract(box).blur(sigma).png().toBuffer();
        return { input: patch, left: box.left, top: box.top };
      }),
    );
    const path = join(workDir, 'result.png');
    await image.pipeline().composite(patches).png().toFile(path);
    return { path, contentType: 'image/png', filename: 'blurred-image.png' };
  },
};
