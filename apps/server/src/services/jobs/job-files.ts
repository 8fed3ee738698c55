import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Each job's files live in DATA_DIR/jobs/<id>: the upload as `input` with its `probe.json`, then
 * the result. Web processes and workers must share DATA_DIR (docs/operations.md).
 */
export const jobDir = (dataDir: string, id: string) => join(dataDir, 'jobs', id);

export async function createJobDir(dataDir: string, id: string): Promise<string> {
  const dir = jobDir(dataDir, id);
  await mkdir(dir, { recursive: true });
  return dir;
}

export const removeJobDir = (dataDir: string, id: string) =>
  rm(jobDir(dataDir, id), { recursive: true, force: true });

/** What a job keeps between attempts: its upload, what probing it found, its extra files. */
const KEPT_BETWEEN_RUNS = new Set(['input', 'probe.json']);
const keptBetweenRuns = (name: string) => KEPT_BETWEEN_RUNS.has(name) || name.startsWith('extra-');

/** A tool's extra file parts (e.g. the watermark's logo) that came with this job, by field. */
export async function extraFilesIn(dir: string, declared: readonly { field: string }[] = []) {
  const found: Record<string, string> = {};
  for (const { field } of declared) {
    const path = join(dir, `extra-${field}`);
    if (
      await stat(path).then(
        () => true,
        () => false,
      )
    )
      found[field] = path;
  }
  return found;
}

/** Removes what a dead or handed-back run wrote, so the next attempt starts clean. */
export async function removeRunOutputs(dataDir: string, id: string) {
  const dir = jobDir(dataDir, id);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => !keptBetweenRuns(name))
      .map((name) => rm(join(dir, name), { recursive: true, force: true })),
  );
}

/**
 * A job that ended done keeps only its result: the upload (up to 100 MB, more than the result
 * for a compress) and what a run left beside it go at once, not when the result expires, so what
 * a user holds on disk is the results RESULT_DISK_PER_USER counts.
 */
export async function keepOnlyResult(dataDir: string, id: string, resultFile: string) {
  const dir = jobDir(dataDir, id);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name !== resultFile)
      .map((name) => rm(join(dir, name), { recursive: true, force: true })),
  );
}
