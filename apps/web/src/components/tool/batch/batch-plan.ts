import type { Service, UserStats } from '@refract/contracts';
import { UNLIMITED } from '@refract/contracts';

/** What a batch may hold before it is sent, so nothing is uploaded only to be refused. */
export interface BatchPlan {
  /** Uses the whole list needs, and uses left (UNLIMITED: no limit). */
  needed: number;
  left: number;
  /** How many of the files, from the first, can run: the uses left and the plan's limits. */
  runnable: number;
  /** Why fewer than all can run, the first reason that applies. */
  cut: 'uses' | 'files' | 'bytes' | null;
  maxFiles: number;
  maxBytes: number;
}

/**
 * The files that fit, in order: within the uses left of the tool's services (the smallest, to
 * be safe when a tool charges one of two), the plan's files per batch and bytes per batch.
 * Without stats (an admin, or not loaded yet) nothing is cut here; the server still checks.
 */
export function planBatch(
  files: File[],
  services: readonly Service[],
  stats?: UserStats,
): BatchPlan {
  if (!stats)
    return {
      needed: files.length,
      left: UNLIMITED,
      runnable: files.length,
      cut: null,
      maxFiles: Infinity,
      maxBytes: Infinity,
    };
  const remaining = stats.usage
    .filter((row) => services.includes(row.service))
    .map((row) => row.remaining);
  const left =
    remaining.includes(UNLIMITED) && remaining.every((r) => r === UNLIMITED)
      ? UNLIMITED
      : Math.min(...remaining.filter((r) => r !== UNLIMITED));
  let runnable = 0;
  let bytes = 0;
  let cut: BatchPlan['cut'] = null;
  for (const file of files) {
    if (left !== UNLIMITED && runnable >= left) cut = 'uses';
    else if (runnable >= stats.batch.maxFiles) cut = 'files';
    else if (bytes + file.size > stats.batch.maxBytes) cut = 'bytes';
    if (cut) break;
    runnable += 1;
    bytes += file.size;
  }
  return {
    needed: files.length,
    left,
    runnable,
    cut,
    maxFiles: stats.batch.maxFiles,
    maxBytes: stats.batch.maxBytes,
  };
}
