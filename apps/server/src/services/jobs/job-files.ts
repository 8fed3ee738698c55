import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Each job's files live in DATA_DIR/jobs/<id>: the upload as `input` with its `probe.json` and
 * `input-name` (the uploaded file's name, to name the result after), then the result. Web processes and workers must share DATA_DIR (docs/operations.md).
 */
export const jobDir = (dataDir: string, id: string) => join(dataDir, 'jobs', id);

export async function createJobDir(dataDir: string, id: string): Promise<string> {
  const dir = jobDir(dataDir, id);
  await mkdir(dir, { recursive: true });
  return dir;
}

export const removeJobDir = (dataDir: string, id: string) =>
  rm(jobDir(dataDir, id), { recursive: true, force: true });

/** The uploaded file's own name, kept beside the input for the worker (no column needed). */
export const keepInputName = (dir: string, name: string | undefined) =>
  writeFile(join(dir, 'input-name'), name ?? '');

export const keptInputName = async (dir: string): Promise<string | undefined> =>
  (await readFile(join(dir, 'input-name'), 'utf8').catch(() => '')) || undefined;
