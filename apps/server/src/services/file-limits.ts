import { IMAGE_TOOLS, sizeLabel, type ToolEntry } from '@refract/contracts';
import type { Config } from '../config.js';
import { AppError } from '../lib/app-error.js';

export const fileTooLarge = (maxBytes: number) =>
  new AppError(
    413,
    'file_too_large',
    `The file is larger than the ${sizeLabel(maxBytes)} limit of this tool`,
  );

/** The server's own largest file, by kind of tool: what no plan can promise past. */
export interface FileCeilings {
  image: number;
  media: number;
}

interface PlanSizes {
  image_max_bytes: number | string;
  media_max_bytes: number | string;
}

/**
 * Images: the largest image tool's own limit. Audio and video: a user's disk allowance
 * (RESULT_DISK_PER_USER), since an unfinished upload counts in it while it lives.
 */
export const fileCeilings = (config: Pick<Config, 'jobs'>): FileCeilings => ({
  image: Math.max(...IMAGE_TOOLS.map((tool) => tool.maxUploadBytes)),
  media: config.jobs.resultBytesPerUser,
});

/** The plan's largest files, within the server's ceilings. */
export const planFileMaxBytes = (plan: PlanSizes, ceilings: FileCeilings): FileCeilings => ({
  image: Math.min(Number(plan.image_max_bytes), ceilings.image),
  media: Math.min(Number(plan.media_max_bytes), ceilings.media),
});

/** The largest file one user may send to one tool: the plan's, and an image tool's own. */
export function toolFileLimit(plan: PlanSizes, tool: ToolEntry, ceilings: FileCeilings): number {
  const sizes = planFileMaxBytes(plan, ceilings);
  if (tool.category !== 'image') return sizes.media;
  return Math.min(sizes.image, tool.maxUploadBytes ?? sizes.image);
}

/** A plan may not promise a file the server would refuse: 400, naming the setting. */
export function checkPlanSizes(
  body: { imageMaxBytes?: number; mediaMaxBytes?: number },
  ceilings: FileCeilings,
) {
  const over = [
    body.imageMaxBytes !== undefined &&
      body.imageMaxBytes > ceilings.image && {
        field: 'imageMaxBytes',
        why: `at most ${sizeLabel(ceilings.image)}, the largest image tool's own limit`,
      },
    body.mediaMaxBytes !== undefined &&
      body.mediaMaxBytes > ceilings.media && {
        field: 'mediaMaxBytes',
        why: `at most ${sizeLabel(ceilings.media)} on this server (RESULT_DISK_PER_USER)`,
      },
  ].filter((entry) => entry !== false);
  if (over.length === 0) return;
  throw new AppError(
    400,
    'validation_failed',
    over.map(({ field, why }) => `${field}: ${why}`).join('; '),
    {},
    { fields: over.map(({ field }) => field) },
  );
}
