import { Readable } from 'node:stream';
import { expect, vi } from 'vitest';
import yauzl from 'yauzl';
import type { Batch } from '@refract/contracts';
import type { App } from '../app.js';
import { bearer } from './accounts.js';
import { multipartFiles } from './multipart.js';

export interface BatchFileInput {
  name: string;
  content: Buffer;
}

/** A batch's multipart body: the tool's fields first, then each file in a `file` part. */
export const batchForm = (fields: Record<string, string>, files: BatchFileInput[]) =>
  multipartFiles(
    fields,
    files.map((file) => ({ field: 'file', filename: file.name, content: file.content })),
  );

export function postBatch(
  app: App,
  path: string,
  token: string,
  fields: Record<string, string>,
  files: BatchFileInput[],
  query = '',
) {
  const form = batchForm(fields, files);
  return app.inject({
    method: 'POST',
    url: `${path}${query}`,
    payload: form.payload,
    headers: { ...form.headers, ...bearer(token) },
  });
}

export async function getBatch(app: App, token: string, id: string): Promise<Batch> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/batches/${id}`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Waits until every file of the batch has ended. */
export async function batchEnded(app: App, token: string, id: string, timeout = 60_000) {
  let batch: Batch | undefined;
  await vi.waitFor(
    async () => {
      batch = await getBatch(app, token, id);
      expect(batch.status).not.toBe('running');
      expect(batch.status).not.toBe('receiving');
    },
    { timeout, interval: 100 },
  );
  return batch!;
}

/** A zip's entries, name → bytes, read with an independent library (yauzl). */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, archive) => {
      if (err || !archive) return reject(err);
      const entries = new Map<string, Buffer>();
      archive.on('entry', (entry: yauzl.Entry) => {
        archive.openReadStream(entry, (openErr, stream) => {
          if (openErr || !stream) return reject(openErr);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            archive.readEntry();
          });
        });
      });
      archive.on('end', () => resolve(entries));
      archive.on('error', reject);
      archive.readEntry();
    });
  });
}

export const asStream = (buffer: Buffer) => Readable.from([buffer]);
