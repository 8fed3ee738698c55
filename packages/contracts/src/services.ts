/** The 16 metered services. Quotas are kept per service. */
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

/**
 * The tool page that charges each service (ids from TOOLS); null for services the product
 * meters but has no page for yet. Labels are the web's `services.<service>` keys.
 */
export const SERVICE_TOOL: Record<Service, string | null> = {
  'optimize-compress': 'compress',
  'optimize-upscale': 'upscale',
  'optimize-remove-background': 'removeBackground',
  'create-meme': 'meme',
  'modify-resize': 'resize',
  'modify-crop': 'crop',
  'modify-rotate': 'rotate',
  'convert-to-jpg': 'convert',
  'convert-from-jpg': 'convert',
  'convert-html-to-image': 'htmlToImage',
  'security-watermark': 'watermark',
  'security-blur-face': 'blurFace',
  'convert-audio': 'convertAudio',
  'convert-video': 'convertVideo',
  'compress-video': 'compressVideo',
  'compress-audio': 'compressAudio',
};

/**
 * Whether people can spend a service: it has a tool. Plan cards and the dashboard list only
 * these, so nobody is sold or shown uses of a tool that does not exist; admins still set every
 * service's quota, ready for when its tool lands.
 */
export const hasTool = (service: Service): boolean => SERVICE_TOOL[service] !== null;
