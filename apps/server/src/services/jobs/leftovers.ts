import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Files a crashed process left under DATA_DIR: a job directory with no job record (a web
 * process killed mid-upload, before or after its slot was given back), and request
 * directories under tmp/ (image uploads). Only what is older than `graceMs` goes: no live
 * request can still own it, since uploads end by UPLOAD_TIMEOUT, which the grace exceeds.
 */
export async function sweepLeftovers(options: {
  dataDir: string;
  graceMs: number;
  /** Whether a job record with this id exists (then its files are the job sweep's business). */
  hasJob(id: string): Promise<boolean>;
}): Promise<string[]> {
  const before = Date.now() - options.graceMs;
  const removed: string[] = [];
  const old = async (path: string) => {
    const info = await stat(path).catch(() => undefined);
    return info !== undefined && info.mtimeMs < before;
  };
  const names = (dir: string) => readdir(dir).catch(() => [] as string[]);

  const jobs = join(options.dataDir, 'jobs');
  for (const id of await names(jobs)) {
    const path = join(jobs, id);
    if ((await old(path)) && !(await options.hasJob(id))) removed.push(path);
  }
  const tmp = join(options.dataDir, 'tmp');
  for (const name of await names(tmp)) {
    const path = join(tmp, name);
    if (name.startsWith('req-') && (await old(path))) removed.push(path);
  }
  await Promise.all(removed.map((path) => rm(path, { recursive: true, force: true })));
  return removed;
}
