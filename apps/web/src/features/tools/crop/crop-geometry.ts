/**
 * The crop frame's arithmetic, in the pixels of the image as the editor shows it (mirrored,
 * then turned): what the server is sent. Pure, so the page and its tests share it.
 */

export interface Size {
  width: number;
  height: number;
}
export interface Frame extends Size {
  x: number;
  y: number;
}

/** The aspect ratios offered, width over height; Free and Original are worked out. */
export const RATIOS = ['free', 'original', '1:1', '4:3', '3:2', '16:9', '9:16', '4:5', 'custom'];
export type RatioId = (typeof RATIOS)[number];
export const DEFAULT_RATIO: RatioId = '4:3';
export const MAX_ZOOM = 3;

/** The ratio's width over height on an image of `view`, or null when the frame is free. */
export function ratioValue(id: RatioId, view: Size, custom: Size, swapped: boolean): number | null {
  if (id === 'free') return null;
  const [w, h] =
    id === 'original'
      ? [view.width, view.height]
      : id === 'custom'
        ? [custom.width, custom.height]
        : id.split(':').map(Number);
  const value = w! / h!;
  // Swapped, 4:3 is 3:4 and 9:16 is 16:9 (Original stays the image's).
  return swapped && id !== 'original' ? 1 / value : value;
}

/** The largest frame of `ratio` (or the whole view) centred on (cx, cy), moved inside. */
function largest(view: Size, ratio: number | null): Size {
  if (ratio === null) return { ...view };
  const width = Math.min(view.width, view.height * ratio);
  return { width, height: width / ratio };
}

export const clamp = (value: number, min: number, max: number) =>
  Math.min(max, Math.max(min, value));

/** Whole pixels, at least 1 × 1, inside the view. */
export function inside(frame: Frame, view: Size): Frame {
  const width = clamp(Math.round(frame.width), 1, view.width);
  const height = clamp(Math.round(frame.height), 1, view.height);
  return {
    width,
    height,
    x: clamp(Math.round(frame.x), 0, view.width - width),
    y: clamp(Math.round(frame.y), 0, view.height - height),
  };
}

/** The frame of `ratio` at `zoom` (1: the largest), centred where `centre` says (fractions). */
export function frameAt(
  view: Size,
  ratio: number | null,
  zoom: number,
  centre = { x: 0.5, y: 0.5 },
): Frame {
  const full = largest(view, ratio);
  const width = full.width / zoom;
  const height = full.height / zoom;
  return inside(
    {
      width,
      height,
      x: centre.x * view.width - width / 2,
      y: centre.y * view.height - height / 2,
    },
    view,
  );
}

/** How near the frame is: the largest frame of its own shape over its width (1 to MAX_ZOOM). */
export function zoomOf(frame: Frame, view: Size): number {
  return largest(view, frame.width / frame.height).width / frame.width;
}

export const centreOf = (frame: Frame, view: Size) => ({
  x: (frame.x + frame.width / 2) / view.width,
  y: (frame.y + frame.height / 2) / view.height,
});

/** A side or corner being dragged: which edges move. */
export interface Handle {
  left?: boolean;
  right?: boolean;
  top?: boolean;
  bottom?: boolean;
}

/**
 * The frame with a handle dragged by (dx, dy) source pixels. With a ratio, the width leads
 * (the height for a top or bottom side alone) and the opposite corner or side stays put.
 */
export function resized(
  start: Frame,
  handle: Handle,
  dx: number,
  dy: number,
  ratio: number | null,
  view: Size,
): Frame {
  let left = start.x;
  let top = start.y;
  let right = start.x + start.width;
  let bottom = start.y + start.height;
  if (handle.left) left = clamp(left + dx, 0, right - 1);
  if (handle.right) right = clamp(right + dx, left + 1, view.width);
  if (handle.top) top = clamp(top + dy, 0, bottom - 1);
  if (handle.bottom) bottom = clamp(bottom + dy, top + 1, view.height);
  if (ratio === null)
    return inside({ x: left, y: top, width: right - left, height: bottom - top }, view);

  const sideways = (handle.left || handle.right) ?? false;
  let width = sideways ? right - left : (bottom - top) * ratio;
  // The room left from the fixed side or corner bounds the frame.
  const roomX = handle.left
    ? start.x + start.width
    : handle.right
      ? view.width - start.x
      : view.width;
  const roomY = handle.top
    ? start.y + start.height
    : handle.bottom
      ? view.height - start.y
      : view.height;
  width = Math.min(width, roomX, roomY * ratio);
  const height = width / ratio;
  const x = handle.left
    ? start.x + start.width - width
    : handle.right
      ? start.x
      : start.x + (start.width - width) / 2;
  const y = handle.top
    ? start.y + start.height - height
    : handle.bottom
      ? start.y
      : start.y + (start.height - height) / 2;
  return inside({ x, y, width, height }, view);
}

/** The view's size once the image is turned by `turn` degrees. */
export const turned = (image: Size, turn: number): Size =>
  turn % 180 === 0 ? image : { width: image.height, height: image.width };
