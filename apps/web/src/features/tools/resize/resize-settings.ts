import { planResize, type ResizeFit, type ResizePlan } from '@refract/contracts';

export interface ResizeSettings {
  mode: 'pixels' | 'percentage';
  width: number | '';
  height: number | '';
  percentage: number | '';
  keepAspect: boolean;
  fit: ResizeFit;
  background: string;
  allowEnlarge: boolean;
}

export const DEFAULT_SETTINGS: ResizeSettings = {
  mode: 'pixels',
  width: '',
  height: '',
  percentage: 50,
  keepAspect: true,
  fit: 'contain',
  background: '#ffffff',
  allowEnlarge: false,
};

const flag = (on: boolean) => (on ? 'true' : 'false');

/** The form fields the server reads; the same values give the plan shown before sending. */
export function toFields(settings: ResizeSettings) {
  return {
    mode: settings.mode,
    width: settings.width === '' ? undefined : settings.width,
    height: settings.height === '' ? undefined : settings.height,
    percentage: settings.percentage === '' ? undefined : settings.percentage,
    keepAspect: flag(settings.keepAspect),
    fit: settings.fit,
    background: settings.background,
    allowEnlarge: flag(settings.allowEnlarge),
  } as const;
}

/** What the server will make of this image, or null while something is missing. */
export function previewPlan(
  source: { width: number; height: number } | null,
  settings: ResizeSettings,
): ResizePlan | null {
  const fields = toFields(settings);
  if (!source) return null;
  if (fields.mode === 'percentage' && fields.percentage === undefined) return null;
  if (fields.mode === 'pixels' && fields.width === undefined && fields.height === undefined)
    return null;
  return planResize(source, fields);
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** 1920×1080 → "16:9"; shapes with no short ratio → "1.91:1". */
export function aspectLabel(width: number, height: number): string {
  const divisor = gcd(width, height);
  const [a, b] = [width / divisor, height / divisor];
  if (a <= 32 && b <= 32) return `${a}:${b}`;
  return `${(width / height).toFixed(2)}:1`;
}

/** The other side, when one changes with the aspect ratio locked. */
export const follow = (value: number, from: number, to: number) =>
  Math.max(1, Math.round((value * to) / from));

/** Kept left to right inside Arabic text, so 1920 × 1080 does not read as 1080 × 1920. */
export const ltr = (text: string) => `\u2066${text}\u2069`;
