import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { batchEnded, postBatch, unzip } from '../test/batches.js';
import * as fixtures from '../test/image-fixtures.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber, subscribe } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Compress to a size: the highest quality that fits, or 422 target_unreachable. */
// Each target takes several encodes; the machine may be shared.
describe('compress to a target size', { timeout: 120_000 }, () => {
  let t: TestApp;
  let token: string;
  let photo: Buffer;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
    photo = await fixtures.photoJpeg(480, 360);
  });
  afterAll(() => t.close());

  const post = (fields: Record<string, string>, content: Buffer, filename: string) =>
    postForm(t.app, '/api/compress', { token, fields, file: { filename, content } });

  it.each([
    ['JPEG', 'jpg', () => sharp(photo).jpeg({ quality: 95 }).toBuffer(), 'image/jpeg'],
    ['WebP', 'webp', () => sharp(photo).webp({ quality: 95 }).toBuffer(), 'image/webp'],
    ['AVIF', 'avif', () => sharp(photo).avif({ quality: 80 }).toBuffer(), 'image/avif'],
    ['PNG', 'png', () => sharp(photo).png().toBuffer(), 'image/png'],
  ] as const)(
    '%s: at most the target, at the highest quality that fits',
    async (_, ext, make, type) => {
      const input = await make();
      // The size at the default quality 80, and a target a third below it.
      const free = await post({}, input, `photo.${ext}`);
      expect(free.statusCode, free.body).toBe(200);
      const target = Math.round(free.rawPayload.length * 0.66);
      const res = await post({ targetBytes: String(target) }, input, `photo.${ext}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.rawPayload.length).toBeLessThanOrEqual(target);
      expect(Number(res.headers['x-compressed-size'])).toBe(res.rawPayload.length);
      const quality = Number(res.headers['x-compress-quality']);
      expect(quality).toBeGreaterThanOrEqual(1);
      expect(quality).toBeLessThan(80);
      // One step higher would not fit: the search found the highest quality, not just any.
      const higher = await post({ quality: String(quality + 1) }, input, `photo.${ext}`);
      expect(higher.rawPayload.length).toBeGreaterThan(target);
      expect((await sharp(res.rawPayload).metadata()).width).toBe(480);
    },
  );

  it('an unreachable target is 422 target_unreachable with the smallest size reached', async () => {
    const res = await post({ targetBytes: '1024' }, photo, 'photo.jpg');
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe('target_unreachable');
    expect(body.smallestBytes).toBeGreaterThan(1024);
    expect(body.error).toContain('smallest reached');
  });

  it('with allowResize the image shrinks to fit, and the answer says to what', async () => {
    const res = await post({ targetBytes: '4096', allowResize: 'true' }, photo, 'photo.jpg');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.length).toBeLessThanOrEqual(4096);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.width).toBeLessThan(480);
    expect(res.headers['x-compress-dimensions']).toBe(`${meta.width}x${meta.height}`);
    expect(Number(res.headers['x-compress-quality'])).toBeGreaterThanOrEqual(50);
  });

  it('works in a batch: every file at most the target', async () => {
    const business = await registerUser(t.app);
    await subscribe(t.database.db, business.user._id, 'business');
    const files = await Promise.all(
      [400, 480].map(async (w, i) => ({
        name: `p${i}.jpg`,
        content: await fixtures.photoJpeg(w, 500),
      })),
    );
    const target = 20_000;
    const res = await postBatch(
      t.app,
      '/api/batch/compress',
      business.token,
      { targetBytes: String(target) },
      files,
      '?files=2',
    );
    expect(res.statusCode, res.body).toBe(202);
    const batch = await batchEnded(t.app, business.token, res.json().batchId);
    expect(batch.counts).toMatchObject({ total: 2, done: 2 });
    const zip = await t.app.inject({
      url: `/api/batches/${batch.id}/zip`,
      headers: bearer(business.token),
    });
    const entries = await unzip(zip.rawPayload);
    expect(entries.size).toBe(2);
    for (const bytes of entries.values()) expect(bytes.length).toBeLessThanOrEqual(target);
  });
});
