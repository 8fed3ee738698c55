import { blurFaceFieldsSchema, toolById, type BlurArea } from '@refract/contracts';
import sharp, { type OverlayOptions } from 'sharp';
import type { z } from 'zod';
import { resultName } from '../lib/result-name.js';
import { writeOwnFormat } from '../media/image/own-format.js';
import { loadImage, toImageError, type LoadedImage } from '../media/image/pipeline.js';
import { inImageSlot } from '../media/image/slots.js';
import type { ToolDefinition } from './tool-definition.js';

/** The spec's 10 px blur, grown with the box so a large face is as unreadable as a small one. */
const MIN_SIGMA = 10;
const SIGMA_PER_BOX_SIDE = 1 / 5;
const MAX_SIGMA = 1000;
/**
 * Above this sigma the box is blurred shrunk (by sigma / EXACT_SIGMA) and grown back: a
 * Gaussian's cost grows with its sigma, so a box the size of a large image would take minutes.
 * Boxes up to 200 px a side (most faces) get the exact Gaussian.
 */
const EXACT_SIGMA = 40;

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

/** One box blurred from its own pixels, as a PNG patch; two pipelines at most, one at a time. */
async function blurredPatch(image: LoadedImage, box: Box, signal: AbortSignal) {
  const sigma = Math.min(
    MAX_SIGMA,
    Math.max(MIN_SIGMA, Math.max(box.width, box.height) * SIGMA_PER_BOX_SIDE),
  );
  if (sigma <= EXACT_SIGMA) {
    return inImageSlot(() => image.pipeline().extract(box).blur(sigma).png().toBuffer(), signal);
  }
  const shrink = sigma / EXACT_SIGMA;
  const small = await inImageSlot(
    () =>
      image
        .pipeline()
        .extract(box)
        .resize(
          Math.max(1, Math.round(box.width / shrink)),
          Math.max(1, Math.round(box.height / shrink)),
          { fit: 'fill' },
        )
        .blur(EXACT_SIGMA)
        .png()
        .toBuffer(),
    signal,
  );
  // sharp resizes before it blurs, so growing the patch back is a pipeline of its own.
  return inImageSlot(
    () => sharp(small).resize(box.width, box.height, { fit: 'fill' }).png().toBuffer(),
    signal,
  );
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
  async run({ input, inputName, fields, workDir, signal }) {
    const image = await loadImage(input, signal);
    const { width, height } = (await inImageSlot(() => image.pipeline().metadata(), signal))
      .autoOrient;
    // Each box is blurred from its own pixels only, one after another; the rest stays untouched.
    const patches: OverlayOptions[] = [];
    for (const box of blurBoxes(fields.areas, width, height)) {
      const patch = await blurredPatch(image, box, signal);
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
