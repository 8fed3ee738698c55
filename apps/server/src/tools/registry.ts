import { SERVICE_TOOL, type Service, type ToolId } from '@refract/contracts';
import { compressAudioTool } from './compress-audio.js';
import { blurFaceTool } from './blur-face.js';
import { compressTool } from './compress.js';
import { compressVideoTool } from './compress-video.js';
import { convertAudioTool } from './convert-audio.js';
import { convertVideoTool } from './convert-video.js';
import { convertTool } from './convert.js';
import { cropTool } from './crop.js';
import { memeTool } from './meme.js';
import { removeBackgroundTool } from './remove-background.js';
import { resizeTool } from './resize.js';
import { rotateTool } from './rotate.js';
import { upscaleTool } from './upscale.js';
import { watermarkTool } from './watermark.js';
import type { ToolDefinition } from './tool-definition.js';

/** Every server-side tool; each registers one POST route. Adding a tool touches only this list. */
export const TOOL_REGISTRY: readonly ToolDefinition[] = [
  convertTool,
  compressTool,
  resizeTool,
  removeBackgroundTool,
  rotateTool,
  upscaleTool,
  convertAudioTool,
  convertVideoTool,
  compressAudioTool,
  compressVideoTool,
  cropTool,
  watermarkTool,
  memeTool,
  blurFaceTool,
];

/** Tools with their own route outside the registry, which charge through runMetered too. */
const ROUTED_APART: readonly string[] = ['htmlToImage'] satisfies ToolId[];

/**
 * Whether a use of the service is charged by its tool on the server, so that the earlier
 * client's `POST /api/user/track` before the tool must not charge it a second time.
 */
export function chargedByItsTool(service: Service): boolean {
  const tool = SERVICE_TOOL[service];
  return tool !== null && (ROUTED_APART.includes(tool) || TOOL_REGISTRY.some((t) => t.id === tool));
}
