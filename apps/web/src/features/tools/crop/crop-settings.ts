import {
  DEFAULT_RATIO,
  centreOf,
  frameAt,
  inside,
  ratioValue,
  turned,
  zoomOf,
  type Frame,
  type RatioId,
  type Size,
} from './crop-geometry';

/** One file's crop: the frame's shape, the image's turn and mirroring, and the frame itself. */
export interface CropSettings {
  ratio: RatioId;
  /** The custom ratio's sides (width : height). */
  custom: Size;
  /** Portrait for landscape, or the other way round. */
  swapped: boolean;
  turn: 0 | 90 | 180 | 270;
  flipHorizontal: boolean;
  flipVertical: boolean;
  /** In the pixels of `view`, the image as shown; null: the largest frame, centred. */
  frame: Frame | null;
  view: Size | null;
}

export const INITIAL_CROP: CropSettings = {
  ratio: DEFAULT_RATIO,
  custom: { width: 5, height: 4 },
  swapped: false,
  turn: 0,
  flipHorizontal: false,
  flipVertical: false,
  frame: null,
  view: null,
};

export const ratioOf = (settings: CropSettings, view: Size) =>
  ratioValue(settings.ratio, view, settings.custom, settings.swapped);

/**
 * The settings' frame on an image of `size` (before the turn): as set when it was set on this
 * view; else the same place and nearness on this one (a batch's other files, or a new turn).
 */
export function frameOn(settings: CropSettings, size: Size): Frame {
  const view = turned(size, settings.turn);
  const ratio = ratioOf(settings, view);
  const { frame, view: from } = settings;
  if (!frame || !from) return frameAt(view, ratio, 1);
  if (from.width === view.width && from.height === view.height) return inside(frame, view);
  if (ratio === null) {
    const sx = view.width / from.width;
    const sy = view.height / from.height;
    return inside(
      { x: frame.x * sx, y: frame.y * sy, width: frame.width * sx, height: frame.height * sy },
      view,
    );
  }
  return frameAt(view, ratio, zoomOf(frame, from), centreOf(frame, from));
}

/** What the server is sent for a file of `size` with these settings. */
export function cropFields(settings: CropSettings, size: Size | null): Record<string, string> {
  const frame = size ? frameOn(settings, size) : settings.frame;
  const { x, y, width, height } = frame ?? { x: 0, y: 0, width: 1, height: 1 };
  return {
    x: String(x),
    y: String(y),
    width: String(width),
    height: String(height),
    turn: String(settings.turn),
    flipHorizontal: String(settings.flipHorizontal),
    flipVertical: String(settings.flipVertical),
  };
}
