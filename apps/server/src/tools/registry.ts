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
