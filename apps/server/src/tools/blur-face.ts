import { blurFaceFieldsSchema, toolById, type BlurArea } from '@refract/contracts';
import type { OverlayOptions } from 'sharp';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { resultName } from '../lib/result-name.js';
import { findFaces } from '../media/faces/face-detector.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import { hiddenPatch } from './hide-patch.js';
import type { ToolDefinition } from './tool-definition.js';

/**
 * With `detect=true` and no areas sent, an image the detector finds no face in is refused
 * (nothing to hide, so nothing charged) rather than sent back unchanged as if it were hidden.
 */
const noFacesFound = () =>
  new AppError(
    422,
    'no_faces_found',
    'No face was found in this image, and no area was given: add the areas to hide by hand.',
  );

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Moves an area inside a `width`×`height` image, keeping its size where it fits. */
export function clampArea(area: BlurArea, width: number, height: number): Box {
  const w = Math.min(Math.round(area.width), width);
  const h = Math.min(Math.round(area.height), height);
  return {
    left: Math.max(0, Math.min(Math.round(area.x), width - w)),
    top: Math.max(0, Math.min(Math.round(area.y), height - h)),
    width: w,
    height: h,
  };
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.left + b.width &&
  b.left < a.left + a.width &&
  a.top < b.top + b.height &&
  b.top < a.top + a.height;

const union = (a: Box, b: Box): Box => {
  const left = Math.min(a.left, b.left);
  const top = Math.min(a.top, b.top);
  return {
    left,
    top,
    width: Math.max(a.left + a.width, b.left + b.width) - left,
    height: Math.max(a.top + a.height, b.top + b.height) - top,
  };
};

/**
 * The areas inside the image, empty ones dropped and overlapping ones merged into their
 * bounding box until none overlap: the boxes left cover each pixel at most once, so the work
 * is bounded by the image's size however many or however large the areas sent.
 */
export function blurBoxes(areas: readonly BlurArea[], width: number, height: number): Box[] {
  const boxes: Box[] = [];
  for (const area of areas) {
    let box = clampArea(area, width, height);
    if (box.width < 1 || box.height < 1) continue;
    for (;;) {
      const i = boxes.findIndex((b) => overlaps(b, box));
      if (i < 0) break;
      box = union(box, boxes.splice(i, 1)[0]!);
    }
    boxes.push(box);
  }
  return boxes;
}

export const blurFaceTool: ToolDefinition<z.output<typeof blurFaceFieldsSchema>> = {
  id: 'blurFace',
  path: '/api/blur-face',
  summary: 'Blur, pixelate or cover areas of an image, and the faces it finds',
  errors: ['no_faces_found', 'engine_unavailable', 'server_busy'],
  fileField: 'image',
  mapError: toImageError,
  maxBytes: toolById('blurFace').maxUploadBytes,
  fields: blurFaceFieldsSchema,
  service: () => 'security-blur-face',
  async run({ input, inputName, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    const { width, height } = (await inImageSlot(() => image.pipeline().metadata(), signal))
      .autoOrient;
    const areas: BlurArea[] = [...(fields.areas ?? [])];
    if (fields.detect === 'true')
      areas.push(...(await findFaces(image.pipeline, { width, height }, signal)));
    const boxes = blurBoxes(areas, width, height);
    if (boxes.length === 0) throw noFacesFound();
    // Each box is hidden from its own pixels only, one after another; the rest stays untouched.
    const patches: OverlayOptions[] = [];
    for (const box of boxes) {
      const patch = await hiddenPatch(image, box, fields, signal);
      patches.push({ input: patch, left: box.left, top: box.top });
    }
    const result = await writeOwnFormat(
      image,
      image.pipeline().composite(patches),
      workDir,
      signal,
    );
    return {
      ...result,
      filename: resultName(inputName, { ...result, suffix: 'blurred', fallback: 'blurred-image' }),
    };
  },
};
