import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SettingsRepository } from '../../db/repositories/settings-repository.js';
import { AppError } from '../../lib/app-error.js';

/**
 * Every web process and worker must see the same DATA_DIR (docs/operations.md). The first
 * process to start writes a random marker file there and records it in the database; any
 * process whose DATA_DIR lacks that file, or holds another, is on a different volume.
 */
const FILE = '.refract-data-dir';
const KEY = 'data_dir_marker';

const readMarker = (dataDir: string) =>
  readFile(join(dataDir, FILE), 'utf8').then(
    (text) => text.trim(),
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    },
  );

/** At start-up: records this DATA_DIR as the shared one when none is recorded yet. */
export async function recordVolumeMarker(dataDir: string, settings: SettingsRepository) {
  if (await settings.get(KEY)) return;
  await mkdir(dataDir, { recursive: true });
  try {
    // Exclusive: two processes starting together on one volume keep the first one's marker.
    await writeFile(join(dataDir, FILE), randomUUID(), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  await settings.setIfAbsent(KEY, (await readMarker(dataDir))!);
}

/** Undefined when DATA_DIR is the shared one; otherwise why it is not (no path: it is shown publicly). */
export async function volumeMismatch(
  dataDir: string,
  settings: SettingsRepository,
): Promise<string | undefined> {
  const [recorded, found] = await Promise.all([settings.get(KEY), readMarker(dataDir)]);
  if (!recorded) return 'no DATA_DIR marker is recorded in the database yet';
  if (found === undefined)
    return `DATA_DIR has no ${FILE}: this process does not see the volume the others share`;
  if (found !== recorded)
    return `DATA_DIR holds another ${FILE} than the one recorded: this process is on a different volume`;
  return undefined;
}

/** How long a process trusts its last volume check (a request must not read two files each time). */
const GUARD_TTL_MS = 5_000;

export const storageUnavailable = (message: string) =>
  new AppError(503, 'storage_unavailable', message, { 'retry-after': '30' });

/**
 * For the job paths: a process whose DATA_DIR is not the shared volume refuses uploads for
 * jobs (no worker could read them) and cannot send results (they are on the other volume),
 * answering 503 storage_unavailable so the client tries again, elsewhere behind a load
 * balancer, instead of a job failing later or a result looking expired.
 */
export function sharedVolumeGuard(dataDir: string, settings: SettingsRepository) {
  let checked: { at: number; mismatch: string | undefined } | undefined;
  const mismatch = async () => {
    if (!checked || Date.now() - checked.at > GUARD_TTL_MS)
      checked = { at: Date.now(), mismatch: await volumeMismatch(dataDir, settings) };
    return checked.mismatch;
  };
  return {
    async assertShared() {
      if (await mismatch())
        throw storageUnavailable(
          'This server cannot reach the shared file storage. Nothing was charged; please try again shortly.',
        );
    },
  };
}

export type SharedVolumeGuard = ReturnType<typeof sharedVolumeGuard>;
