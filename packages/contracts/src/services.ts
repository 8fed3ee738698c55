/** The 16 metered services of the product spec (section 3). Quotas are kept per service. */
export const SERVICES = [
  'optimize-compress',
  'optimize-upscale',
  'optimize-remove-background',
  'create-meme',
  'modify-resize',
  'modify-crop',
  'modify-rotate',
  'convert-to-jpg',
  'convert-from-jpg',
  'convert-html-to-image',
  'security-watermark',
  'security-blur-face',
  'convert-audio',
  'convert-video',
  'compress-video',
  'compress-audio',
] as const;

export type Service = (typeof SERVICES)[number];
