import { createWriteStream } from 'node:fs';
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { AppError } from '../../lib/app-error.js';
import { fileTooLarge } from '../file-limits.js';

/** What the tus file store keeps beside each upload, `<id>.json`. */
interface UploadInfo {
  id: string;
  size?: number;
  metadata?: Record<string, string | null>;
  creation_date?: string;
}

export interface StoredUpload {
  id: string;
  owner: string;
  /** The length declared at creation. */
  size: number;
  /** What has arrived: the data file's length. */
  offset: number;
  filename?: string;
  /** The last byte's arrival (or the creation), from the files' times. */
  lastActivityMs: number;
}

/** The ids the tus server gives (16 random bytes in hex): nothing else names a file here. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

const notFound = () =>
  new AppError(404, 'upload_not_found', 'No such upload: it was never made, or it was removed');

/**
 * Resumable uploads on disk, in DATA_DIR/uploads: the tus file store's data file `<id>` and its
 * `<id>.json`, where the server writes the owner. Every process that shares DATA_DIR sees the
 * same uploads, so a resumed upload may reach any of them.
 */
export function uploadStore(dataDir: string) {
  const directory = join(dataDir, 'uploads');
  const fileStore = new FileStore({ directory });

  async function find(id: string): Promise<StoredUpload | undefined> {
    if (!UPLOAD_ID.test(id)) return undefined;
    const text = await readFile(join(directory, `${id}.json`), 'utf8').catch(() => undefined);
    if (!text) return undefined;
    const info = JSON.parse(text) as UploadInfo;
    const data = await stat(join(directory, id)).catch(() => undefined);
    const meta = await stat(join(directory, `${id}.json`)).catch(() => undefined);
    const owner = info.metadata?.owner;
    if (!owner || info.size === undefined || !meta) return undefined;
    return {
      id,
      owner,
      size: info.size,
      offset: data?.size ?? 0,
      filename: info.metadata?.filename ?? undefined,
      lastActivityMs: Math.max(data?.mtimeMs ?? 0, meta.mtimeMs),
    };
  }

  async function list(): Promise<StoredUpload[]> {
    const names = await readdir(directory).catch(() => [] as string[]);
    const ids = names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
    const found = await Promise.all(ids.map(find));
    return found.filter((upload) => upload !== undefined);
  }

  /** Uploads a request of this process is writing now: one writer each. */
  const writing = new Set<string>();

  const remove = (id: string) =>
    Promise.all([
      rm(join(directory, id), { force: true }),
      rm(join(directory, `${id}.json`), { force: true }),
    ]);

  return {
    directory,
    fileStore,

    /**
     * Writes `body` into the user's upload from `offset`, which must be what the server has
     * (409 otherwise, as tus says), and returns how many bytes it took. The bytes go straight
     * from the request to the file, never more than the length declared (413 past it); a body
     * cut short keeps what arrived, which HEAD then reports.
     */
    async append(id: string, userId: string, offset: number, body: Readable): Promise<number> {
      const upload = await this.owned(id, userId);
      if (offset !== upload.offset)
        throw new AppError(
          409,
          'validation_failed',
          `The upload has ${upload.offset} bytes; send from Upload-Offset ${upload.offset}`,
        );
      if (writing.has(id))
        throw new AppError(409, 'validation_failed', 'Another request is writing this upload');
      writing.add(id);
      const room = upload.size - upload.offset;
      let received = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          done(received > room ? fileTooLarge(upload.size) : null, chunk);
        },
      });
      try {
        const file = createWriteStream(join(directory, id), { flags: 'r+', start: offset });
        await pipeline(body, limit, file);
        return received;
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError(400, 'validation_failed', 'The upload was interrupted');
      } finally {
        writing.delete(id);
      }
    },

    /** The user's own upload; another user's is as unknown as one never made (404). */
    async owned(id: string, userId: string): Promise<StoredUpload> {
      const upload = await find(id);
      if (!upload || upload.owner !== userId) throw notFound();
      return upload;
    },

    /**
     * From one reading of the folder: the bytes of the user's uploads, finished or not, while
     * they are kept (`heldBy`), and what the unfinished uploads of every user still have to
     * send (`stillToCome`).
     */
    async totals(userId?: string): Promise<{ heldBy: number; stillToCome: number }> {
      let heldBy = 0;
      let stillToCome = 0;
      for (const upload of await list()) {
        if (upload.owner === userId) heldBy += upload.size;
        stillToCome += Math.max(0, upload.size - upload.offset);
      }
      return { heldBy, stillToCome };
    },

    /**
     * Moves a finished upload of this user to a job's input, by renaming it (no copy); its
     * record stays until `settle` (the job is queued) or `putBack` (it was not). 409
     * upload_unfinished while bytes are missing; 413 past `maxBytes` (the plan may have changed).
     */
    async take(id: string, userId: string, input: string, maxBytes: number) {
      const upload = await this.owned(id, userId);
      if (upload.offset < upload.size)
        throw new AppError(
          409,
          'upload_unfinished',
          `The upload has ${upload.offset} of its ${upload.size} bytes; send the rest first`,
        );
      if (upload.size > maxBytes) throw fileTooLarge(maxBytes);
      try {
        await rename(join(directory, id), input);
      } catch (err) {
        // Taken by another request of the same user a moment before.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound();
        throw err;
      }
      return upload;
    },

    /** The job was queued: the upload is the job's now. */
    settle: (id: string) => rm(join(directory, `${id}.json`), { force: true }),

    /** The job was not queued: the upload goes back, for another try. */
    putBack: (id: string, input: string) => rename(input, join(directory, id)),

    /**
     * Removes every upload silent for `idleMs` (UPLOAD_TIMEOUT): an abandoned one, or a finished
     * one never made a job's input. Returns the ids removed.
     */
    async sweep(idleMs: number, now = Date.now()): Promise<string[]> {
      const stale = (await list()).filter((upload) => now - upload.lastActivityMs >= idleMs);
      await Promise.all(stale.map((upload) => remove(upload.id)));
      // A data file whose record never came (a crash between the two writes).
      const names = await readdir(directory).catch(() => [] as string[]);
      const orphans = [];
      for (const name of names.filter((n) => UPLOAD_ID.test(n) && !names.includes(`${n}.json`))) {
        const info = await stat(join(directory, name)).catch(() => undefined);
        if (info && now - info.mtimeMs >= idleMs) orphans.push(name);
      }
      await Promise.all(orphans.map(remove));
      return [...stale.map((upload) => upload.id), ...orphans];
    },
  };
}

export type UploadStore = ReturnType<typeof uploadStore>;
