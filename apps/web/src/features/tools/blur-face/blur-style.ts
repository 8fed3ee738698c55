import { BLUR_STRENGTH, type BlurStyle } from '@refract/contracts';

/** How every area of every file is hidden; shared by a batch's files, as the server takes it. */
export interface HideSettings {
  style: BlurStyle;
  strength: number;
  /** `#rrggbb`, for the solid box. */
  color: string;
  /** The server finds each file's faces itself and hides them with the areas placed by hand. */
  detectAll: boolean;
}

export const DEFAULT_HIDE: HideSettings = {
  style: 'blur',
  strength: BLUR_STRENGTH.default,
  color: '#000000',
  detectAll: false,
};

/** The settings as the server's fields (`color` only where a box uses it). */
export function hideFields(settings: HideSettings): Record<string, string> {
  return {
    style: settings.style,
    strength: String(settings.strength),
    ...(settings.style === 'box' ? { color: settings.color } : {}),
    ...(settings.detectAll ? { detect: 'true' } : {}),
  };
}
