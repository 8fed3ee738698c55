import type { ToolEntry } from '@refract/contracts';
import { useUserStats } from './queries';

/**
 * The largest file this visitor may give the tool, as far as the page knows: the user's plan's
 * (within an image tool's own limit) once signed in; an image tool's own limit before; none
 * for audio and video before sign-in, whose size only the plan sets (the server says if a file
 * is too large).
 */
export function useFileLimit(tool: ToolEntry): number | undefined {
  const stats = useUserStats().data;
  const own = tool.maxUploadBytes;
  if (!stats) return own;
  if (tool.category !== 'image') return stats.fileMaxBytes.media;
  return Math.min(own ?? Infinity, stats.fileMaxBytes.image);
}
