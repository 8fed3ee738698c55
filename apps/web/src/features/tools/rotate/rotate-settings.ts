/** Rotate's settings: what the preview draws and the server is sent, the same values. */
export interface RotateSettings {
  /** Clockwise degrees, −180 to 180. */
  angle: number;
  corners: 'fill' | 'crop';
  /** #rrggbb or 'transparent'. */
  background: string;
  flipHorizontal: boolean;
  flipVertical: boolean;
}

export const INITIAL_ROTATE: RotateSettings = {
  angle: 0,
  corners: 'fill',
  background: 'transparent',
  flipHorizontal: false,
  flipVertical: false,
};

/** Any angle back into −180..180 (the 90° buttons go round). */
export function wrapAngle(angle: number) {
  const turned = ((angle % 360) + 360) % 360;
  return turned > 180 ? turned - 360 : turned;
}

export function rotateFields(settings: RotateSettings): Record<string, string> {
  return {
    angle: String(settings.angle),
    corners: settings.corners,
    background: settings.background,
    flipHorizontal: String(settings.flipHorizontal),
    flipVertical: String(settings.flipVertical),
  };
}
