import { statfs } from 'node:fs/promises';
import { sizeLabel } from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';

const insufficientStorage = (needed: number) =>
  new AppError(
    507,
    'insufficient_storage',
    `The server has no room for this file now (it needs ${sizeLabel(needed)} free, with its result). Try a smaller file, or try again later.`,
  );

/** Bytes of a multipart upload under way in this process, promised but not yet on disk. */
let promised = 0;

/**
 * Checks, before a byte of an upload is read, that DATA_DIR has room for it and for its result,
 * and holds the upload's own bytes for it until `release` (once they are on disk). A result is counted as large as its input: a
 * compress never passes it, and a conversion that grows past MEDIA_MAX_OUTPUT_MB is stopped
 * while it writes. `elsewhere` is what other uploads still have to send (the resumable ones
 * under way, read off their files). Without room: 507 insufficient_storage, nothing charged.
 */
export async function holdRoom(dataDir: string, bytes: number, elsewhere = 0) {
  await checkRoom(dataDir, bytes, elsewhere);
  promised += bytes;
  let held = true;
  return {
    release() {
      if (held) promised -= bytes;
      held = false;
    },
  };
}

/**
 * The same check without holding anything: for an upload whose bytes arrive later, in requests
 * of their own (a resumable upload is counted in `elsewhere` from its file once created).
 */
export async function checkRoom(dataDir: string, bytes: number, elsewhere = 0) {
  const needed = 2 * bytes;
  const disk = await statfs(dataDir);
  const free = disk.bavail * disk.bsize;
  if (free - promised - elsewhere < needed) throw insufficientStorage(needed);
}
