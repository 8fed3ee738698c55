import type { Service } from './services.js';
import { MB } from './sizes.js';

export type ToolCategory = 'image' | 'audio' | 'video';

export interface ToolEntry {
  /** Stable id; also the i18n key under `tools.<id>`. */
  id: string;
  /** The page's route. */
  route: string;
  category: ToolCategory;
  /** The service a use is charged to. Convert picks between two by target format. */
  services: readonly Service[];
  /**
   * An image tool's own largest upload, in bytes; a user's plan may allow less. Audio and video
   * tools have none of their own: the plan sets theirs (`mediaMaxBytes`), within the server's
   * ceiling.
   */
  maxUploadBytes?: number;
}

/** The tools catalogue: one entry per tool page, in the order the nav shows them. */
export const TOOLS = [
  {
    id: 'convert',
    route: '/convert',
    category: 'image',
    services: ['convert-to-jpg', 'convert-from-jpg'],
    maxUploadBytes: 100 * MB,
  },
  {
    id: 'compress',
    route: '/compress',
    category: 'image',
    services: ['optimize-compress'],
    maxUploadBytes: 10 * MB,
  },
  {
    id: 'resize',
    route: '/resize',
    category: 'image',
    services: ['modify-resize'],
    maxUploadBytes: 10 * MB,
  },
  {
    id: 'removeBackground',
    route: '/remove-background',
    category: 'image',
    services: ['optimize-remove-background'],
    maxUploadBytes: 10 * MB,
  },
  {
    id: 'htmlToImage',
    route: '/html-to-image',
    category: 'image',
    services: ['convert-html-to-image'],
    maxUploadBytes: 1 * MB,
  },
  {
    id: 'rotate',
    route: '/rotate',
    category: 'image',
    services: ['modify-rotate'],
    maxUploadBytes: 10 * MB,
  },
  {
    id: 'crop',
    route: '/crop',
    category: 'image',
    services: ['modify-crop'],
    maxUploadBytes: 10 * MB,
  },
  {
    id: 'watermark',
    route: '/watermark',
    category: 'image',
    services: ['security-watermark'],
    maxUploadBytes: 10 * MB,
  },
  {
    id: 'meme',
    route: '/meme-generator',
    category: 'image',
    services: ['create-meme'],
    maxUploadBytes: 10 * MB,
  },
  {
    id: 'blurFace',
    route: '/blur-face',
    category: 'image',
    services: ['security-blur-face'],
    maxUploadBytes: 10 * MB,
  },
  {
    id: 'upscale',
    route: '/upscale',
    category: 'image',
    services: ['optimize-upscale'],
    maxUploadBytes: 10 * MB,
  },
  {
    id: 'convertAudio',
    route: '/convertaudio',
    category: 'audio',
    services: ['convert-audio'],
  },
  {
    id: 'compressAudio',
    route: '/compress-audio',
    category: 'audio',
    services: ['compress-audio'],
  },
  {
    id: 'convertVideo',
    route: '/convertvideo',
    category: 'video',
    services: ['convert-video'],
  },
  {
    id: 'compressVideo',
    route: '/compress-video',
    category: 'video',
    services: ['compress-video'],
  },
] as const satisfies readonly ToolEntry[];

export type ToolId = (typeof TOOLS)[number]['id'];

export const IMAGE_TOOLS = TOOLS.filter((tool) => tool.category === 'image');

export const TOOL_CATEGORIES = ['image', 'audio', 'video'] as const satisfies ToolCategory[];

/** Every tool, grouped by kind: the one list the Features menu, mobile menu and footer show. */
export const TOOL_GROUPS = TOOL_CATEGORIES.map((category) => ({
  category,
  tools: TOOLS.filter((tool) => tool.category === category),
}));

/** The catalogue entry of one tool. */
export function toolById<Id extends ToolId>(id: Id): Extract<(typeof TOOLS)[number], { id: Id }> {
  return TOOLS.find((tool) => tool.id === id) as Extract<(typeof TOOLS)[number], { id: Id }>;
}
