import type { WatermarkFields } from '@refract/contracts';

/** What the page sends and the preview draws: the contract's fields, but a size always set. */
export type WatermarkSettings = Omit<WatermarkFields, 'previewWidth' | 'size'> & { size: number };

/** Centred, half opaque, white text a third of the image's width. */
export const DEFAULT_SETTINGS: Omit<WatermarkSettings, 'x' | 'y'> = {
  mark: 'text',
  text: '© Refract',
  color: '#ffffff',
  font: 'sans',
  opacity: 0.5,
  size: 0.3,
  scale: 1,
  rotation: 0,
  position: 'custom',
  margin: 0.03,
  gap: 0.5,
};
