import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from '../../test/accounts.js';
import { batchEnded, getBatch, postBatch, unzip, type BatchFileInput } from '../../test/batches.js';
import { describeEachDatabase } from '../../test/databases.js';
import * as images from '../../test/image-fixtures.js';
import { used } from '../../test/jobs.js';
import * as media from '../../test/media-fixtures.js';
import { subscribe } from '../../test/plans.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** A photo-like JPEG (noise at top quality) that compressing really makes smaller. */
const photo = (seed: number) =>
  sharp({
    create: {
      width: 160 + seed,
      height: 120,
      channels: 3,
      background: { r: 40 * seed, g: 90, b: 200 },
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg({ quality: 100 })
    .toBuffer();

/** Ten files as a user would drop them: eight good (two share a name), one damaged, one not an image. */
async function mixedImages(): Promise<BatchFileInput[]> {
  const good = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(photo));
  return [
    { name: 'IMG_1054.jpg', content: good[0]! },
    { name: 'beach.jpg', content: good[1]! },
    { name: 'damaged.jpg', content: await images.truncatedJpeg() },
    { name: 'beach.jpg', content: good[2]! },
    { name: 'notes.txt', content: images.textAsPng() },
    { name: 'c.jpeg', content: good[3]! },
    { name: 'd.jpg', content: good[4]! },
    { name: 'e.jpg', content: good[5]! },
    { name: 'f.jpg', content: good[6]! },
    { name: 'g.jpg', content: good[7]! },
  ];
}

const EXPECTED_IMAGE_NAMES = (ext: string) => [
  `IMG_1054.${ext}`,
  `beach.${ext}`,
  `beach (2).${ext}`,
  // A JPEG kept as JPEG keeps the name's own spelling of the extension (decision 016).
  ext === 'jpg' ? 'c.jpeg' : `c.${ext}`,
  `d.${ext}`,
  `e.${ext}`,
  `f.${ext}`,
  `g.${ext}`,
];

describeEachDatabase('batches', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const jobsLeftOnDisk = () => {
    const dir = join(t.database.options.dataDir, 'jobs');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  async function business() {
    const user = await registerUser(t.app);
    await subscribe(t.database.db, user.user._id, 'business');
    return user.token;
  }

  async function expectEightOfTen(path: string, fields: Record<string, string>, ext: string) {
    const token = await business();
    const res = await postBatch(t.app, path, token, fields, await mixedImages(), '?files=10');
    expect(res.statusCode, res.body).toBe(202);
    const batch = await batchEnded(t.app, token, res.json().batchId);
    expect(batch.status).toBe('done');
    expect(batch.counts).toEqual({ total: 10, done: 8, failed: 2, unfinished: 0 });
    expect(batch.files.map((f) => f.name)).toEqual((await mixedImages()).map((f) => f.name));
    expect(batch.files[2]!.error?.code).toBe('invalid_image');
    expect(batch.files[4]!.error?.code).toBe('unsupported_media_type');
    const names = batch.files.filter((f) => f.status === 'done').map((f) => f.filename);
    expect(names).toEqual(EXPECTED_IMAGE_NAMES(ext));
    expect(await used(t, token)).toBe(8);

    const zip = await t.app.inject({ url: `/api/batches/${batch.id}/zip`, headers: bearer(token) });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const entries = await unzip(zip.rawPayload);
    expect([...entries.keys()]).toEqual(EXPECTED_IMAGE_NAMES(ext));
    for (const [name, bytes] of entries) {
      const file = batch.files.find((f) => f.filename === name)!;
      expect(bytes.length).toBe(file.outputBytes);
      expect((await sharp(bytes).metadata()).format).toBe(ext === 'jpg' ? 'jpeg' : ext);
    }
    // One file's own download: the same bytes, under its batch name.
    const one = await t.app.inject({
      url: `/api/batches/${batch.id}/files/3`,
      headers: bearer(token),
    });
    expect(one.statusCode).toBe(200);
    // An ASCII stand-in for old clients, and the real name in filename* (RFC 6266).
    expect(one.headers['content-disposition']).toBe(
      `attachment; filename="beach__2_.${ext}"; filename*=UTF-8''beach%20%282%29.${ext}`,
    );
    expect(one.rawPayload.equals(entries.get(`beach (2).${ext}`)!)).toBe(true);
    const failed = await t.app.inject({
      url: `/api/batches/${batch.id}/files/2`,
      headers: bearer(token),
    });
    expect(failed.json().code).toBe('invalid_image');
    return batch;
  }

  it('converts 10 mixed files: 8 results, 2 per-file errors, a zip of the 8, 8 uses', async () => {
    await expectEightOfTen('/api/batch/convert', { format: 'webp' }, 'webp');
  });

  it('compresses 10 mixed files the same way, every result smaller', async () => {
    const batch = await expectEightOfTen('/api/batch/compress', { quality: '60' }, 'jpg');
    for (const file of batch.files.filter((f) => f.status === 'done'))
      expect(file.outputBytes!).toBeLessThan(file.inputBytes);
  });

  it('runs 50 files against 3 remaining uses: exactly 3 done, 47 quota_exceeded unprocessed', async () => {
    await t.database.db
      .updateTable('plans')
      .set({ batch_max_files: 50 })
      .where('slug', '=', 'basic')
      .execute();
    try {
      const { token } = await registerUser(t.app);
      const png = await images.pngBytes();
      const files = Array.from({ length: 50 }, (_, i) => ({ name: `p${i}.png`, content: png }));
      const res = await postBatch(t.app, '/api/batch/rotate', token, { angle: '90' }, files);
      expect(res.statusCode, res.body).toBe(202);
      const batch = await batchEnded(t.app, token, res.json().batchId);
      expect(batch.counts.done).toBe(3);
      const refused = batch.files.filter((f) => f.error?.code === 'quota_exceeded');
      expect(refused).toHaveLength(47);
      expect(refused.every((f) => f.progress === 0 && !f.charged)).toBe(true);
      expect(await used(t, token)).toBe(3);
    } finally {
      await t.database.db
        .updateTable('plans')
        .set({ batch_max_files: 5 })
        .where('slug', '=', 'basic')
        .execute();
    }
  });

  it("refuses more files than the plan's batch limit, declared or not, and charges nothing", async () => {
    const { token } = await registerUser(t.app);
    const before = jobsLeftOnDisk();
    const png = await images.pngBytes();
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `p${i}.png`, content: png }));
    const declared = await postBatch(t.app, '/api/batch/rotate', token, {}, six, '?files=6');
    expect(declared.statusCode).toBe(413);
    expect(declared.json().code).toBe('batch_too_large');
    expect(declared.json().error).toMatch(/5 files/);
    const streamed = await postBatch(t.app, '/api/batch/rotate', token, {}, six);
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json().code).toBe('batch_too_large');
    const tooBig = await t.app.inject({
      method: 'POST',
      url: '/api/batch/rotate',
      headers: { ...bearer(token), 'content-type': 'multipart/form-data; boundary=x' },
      payload: Buffer.alloc(300 * 1024 * 1024 + 10),
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error).toMatch(/250 MB/);
    expect(await used(t, token)).toBe(0);
    expect(jobsLeftOnDisk()).toEqual(before);
  });

  it('checks the fields once, before any file, with the tool schema', async () => {
    const token = await business();
    const png = await images.pngBytes();
    const res = await postBatch(t.app, '/api/batch/convert', token, { format: 'exe' }, [
      { name: 'a.png', content: png },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    const none = await postBatch(t.app, '/api/batch/convert', token, { format: 'webp' }, []);
    expect(none.json().code).toBe('no_file');
    expect(await used(t, token)).toBe(0);
  });

  it('keeps batches private: another user gets 404 everywhere', async () => {
    const owner = await business();
    const other = await business();
    const png = await images.pngBytes();
    const res = await postBatch(t.app, '/api/batch/rotate', owner, {}, [
      { name: 'a.png', content: png },
    ]);
    const id = res.json().batchId;
    await batchEnded(t.app, owner, id);
    for (const [method, url] of [
      ['GET', `/api/batches/${id}`],
      ['GET', `/api/batches/${id}/events`],
      ['GET', `/api/batches/${id}/zip`],
      ['GET', `/api/batches/${id}/files/0`],
      ['DELETE', `/api/batches/${id}`],
    ] as const) {
      const answer = await t.app.inject({ method, url, headers: bearer(other) });
      expect(answer.statusCode, url).toBe(404);
    }
    expect((await t.app.inject({ url: `/api/batches/${id}` })).statusCode).toBe(401);
    expect((await getBatch(t.app, owner, id)).counts.done).toBe(1);
  });

  it('works with an API key', async () => {
    const token = await business();
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(token),
      payload: { name: 'batch' },
    });
    expect(key.statusCode, key.body).toBe(201);
    const apiKey = key.json().key as string;
    const png = await images.pngBytes();
    const res = await postBatch(t.app, '/api/batch/rotate', apiKey, {}, [
      { name: 'a.png', content: png },
      { name: 'b.png', content: png },
    ]);
    expect(res.statusCode, res.body).toBe(202);
    const batch = await batchEnded(t.app, apiKey, res.json().batchId);
    expect(batch.counts.done).toBe(2);
  });
});

describe.skipIf(!images.hasFfmpeg)('video batches', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('compresses 10 mixed videos: 8 results, 2 per-file errors, a zip of 8, 8 uses', async () => {
    const user = await registerUser(t.app);
    await subscribe(t.database.db, user.user._id, 'business');
    const video = media.testVideo(1, '320x240');
    const files = [
      ...['a', 'b', 'c', 'd'].map((n) => ({ name: `${n}.mp4`, content: video })),
      { name: 'broken.mp4', content: media.truncatedMp4() },
      { name: 'song.txt', content: media.textFile() },
      ...['e', 'f', 'g', 'a'].map((n) => ({ name: `${n}.mov`, content: video })),
    ];
    const res = await postBatch(
      t.app,
      '/api/batch/video/compress-video',
      user.token,
      { percentage: '30' },
      files,
    );
    expect(res.statusCode, res.body).toBe(202);
    const batch = await batchEnded(t.app, user.token, res.json().batchId, 120_000);
    expect(batch.counts).toEqual({ total: 10, done: 8, failed: 2, unfinished: 0 });
    expect(batch.files[4]!.error?.code).toBe('unsupported_media_type');
    expect(batch.files[5]!.error?.code).toBe('unsupported_media_type');
    const zip = await t.app.inject({
      url: `/api/batches/${batch.id}/zip`,
      headers: bearer(user.token),
    });
    const names = [...(await unzip(zip.rawPayload)).keys()];
    expect(names).toEqual([
      'a.mp4',
      'b.mp4',
      'c.mp4',
      'd.mp4',
      'e.mp4',
      'f.mp4',
      'g.mp4',
      'a (2).mp4',
    ]);
    expect(await used(t, user.token)).toBe(8);
  }, 180_000);

  it('cancels a batch: files not yet done end cancelled and uncharged', async () => {
    const user = await registerUser(t.app);
    await subscribe(t.database.db, user.user._id, 'business');
    const video = media.testVideo(20, '640x480');
    const files = ['a', 'b', 'c', 'd'].map((n) => ({ name: `${n}.mp4`, content: video }));
    const res = await postBatch(
      t.app,
      '/api/batch/video/convert-video',
      user.token,
      { format: 'webm' },
      files,
    );
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().batchId;
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/batches/${id}`,
      headers: bearer(user.token),
    });
    expect(cancelled.statusCode).toBe(200);
    const batch = await batchEnded(t.app, user.token, id);
    expect(batch.status).toBe('cancelled');
    expect(batch.files.every((f) => f.status === 'cancelled' && !f.charged)).toBe(true);
    expect(await used(t, user.token)).toBe(0);
    for (const file of batch.files)
      expect(existsSync(join(t.database.options.dataDir, 'jobs', file.jobId))).toBe(false);
  }, 120_000);
});
