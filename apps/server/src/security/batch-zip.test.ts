import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOT_INCLUDED_NAME, zipFiles } from '../services/batches/results-zip.js';
import { bearer, registerUser } from '../test/accounts.js';
import { batchEnded, postBatch, unzip } from '../test/batches.js';
import { subscribe } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Reads `stream` to the end, pausing after its first chunk until `atPause` has run. */
async function readWithPause(stream: Readable, atPause: () => void): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let paused = false;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    if (!paused) {
      paused = true;
      atPause();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return Buffer.concat(chunks);
}

/** A batch zip whose results vanish mid-download (evicted, expired) ends that download only. */
describe('batch zip with results that disappear', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'refract-zip-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sends a result deleted while it is read whole, and names one gone before its turn', async () => {
    const files = ['a.wav', 'b.wav', 'c.wav'].map((name) => {
      const path = join(dir, name);
      const content = randomBytes(3 * 1024 * 1024);
      writeFileSync(path, content);
      return { name, path, content };
    });
    const zip = await readWithPause(zipFiles(files), () => {
      // The first is being read, the third not reached: both are evicted now.
      unlinkSync(files[0]!.path);
      unlinkSync(files[2]!.path);
    });
    const entries = await unzip(zip);
    expect([...entries.keys()]).toEqual(['a.wav', 'b.wav', NOT_INCLUDED_NAME]);
    expect(entries.get('a.wav')!.equals(files[0]!.content)).toBe(true);
    expect(entries.get('b.wav')!.equals(files[1]!.content)).toBe(true);
    expect(entries.get(NOT_INCLUDED_NAME)!.toString()).toContain('- c.wav');
  });

  it('stops reading and closes the open file when the client leaves', async () => {
    const path = join(dir, 'big.bin');
    writeFileSync(path, randomBytes(8 * 1024 * 1024));
    const stream = zipFiles([{ name: 'big.bin', path }]);
    await new Promise((resolve) => stream.once('data', resolve));
    stream.destroy();
    const stillOpen = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false;
        }
      });
    // The file is closed on the stream's own teardown, a moment after destroy().
    await vi.waitFor(() => expect(stillOpen()).toEqual([]), { timeout: 30_000, interval: 20 });
  });
});

describe('batch zip through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('answers a zip whose result was evicted before the download: the rest, and a note', async () => {
    const user = await registerUser(t.app);
    await subscribe(t.database.db, user.user._id, 'business');
    const png = (r: number) =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g: 0, b: 0 } } })
        .png()
        .toBuffer();
    const files = await Promise.all(
      ['one', 'two', 'three'].map(async (name, i) => ({
        name: `${name}.png`,
        content: await png(i * 80),
      })),
    );
    const res = await postBatch(t.app, '/api/batch/rotate', user.token, { angle: '90' }, files);
    expect(res.statusCode, res.body).toBe(202);
    const batch = await batchEnded(t.app, user.token, res.json().batchId);
    expect(batch.counts.done).toBe(3);
    // The second result is evicted by a newer one (RESULT_DISK_PER_USER).
    const jobs = await t.database.db
      .selectFrom('jobs')
      .select(['id', 'result_file'])
      .where('batch_id', '=', batch.id)
      .orderBy('batch_index')
      .execute();
    unlinkSync(join(t.database.options.dataDir, 'jobs', jobs[1]!.id, jobs[1]!.result_file!));

    const zip = await t.app.inject({
      url: `/api/batches/${batch.id}/zip`,
      headers: bearer(user.token),
    });
    expect(zip.statusCode).toBe(200);
    const entries = await unzip(zip.rawPayload);
    expect([...entries.keys()]).toEqual(['one.png', 'three.png', NOT_INCLUDED_NAME]);
    expect(entries.get(NOT_INCLUDED_NAME)!.toString()).toContain('- two.png');
    // The server is still up and answering.
    expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
  });
});
