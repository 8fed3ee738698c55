import type { DetectedFace } from '@refract/contracts';

/** A blur area in the original image's pixels (the server's unit). */
export interface BlurRect {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** In preview pixels: new areas are 100×100 at (50, 50), never under 20. */
export const NEW_AREA = { x: 50, y: 50, size: 100 };
export const MIN_AREA_PREVIEW_PX = 20;
export const MAX_PREVIEW_WIDTH = 600;

let nextId = 1;
export const newId = () => nextId++;

/** Keeps a rectangle at least `min` wide and high and wholly inside the image. */
export function clampRect<T extends Omit<BlurRect, 'id'>>(
  rect: T,
  image: { width: number; height: number },
  min: number,
): T {
  const width = Math.min(image.width, Math.max(min, rect.width));
  const height = Math.min(image.height, Math.max(min, rect.height));
  return {
    ...rect,
    width,
    height,
    x: Math.min(image.width - width, Math.max(0, rect.x)),
    y: Math.min(image.height - height, Math.max(0, rect.y)),
  };
}

/** The areas as the server's `areas` field: whole source pixels. */
export const areasField = (areas: BlurRect[]) =>
  JSON.stringify(
    areas.map(({ x, y, width, height }) => ({
      x: Math.round(x),
      y: Math.round(y),
      width: Math.round(width),
      height: Math.round(height),
    })),
  );

export const faceToArea = (face: DetectedFace): BlurRect => ({
  id: newId(),
  x: face.x,
  y: face.y,
  width: face.width,
  height: face.height,
});
