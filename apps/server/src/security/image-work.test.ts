import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IMAGE_SLOTS, imageSlotCounters } from '../media/image/slots.js';
import { pngBytes } from '../test/image-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { noisePng, rgba } from '../test/pixels.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Synchronous image tools cannot hold the server: bounded pipelines, sizes and time. */
describe('bounded image work', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (path: string, fields: Record<string, string>, content: Buffer) =>
    postForm(t.app, path, { token, fields, file: { filename: 'in.png', content } });

  /** Black and white 8 px squares: a PNG small enough for any upload limit, grey once blurred. */
  const checkerboard = (size: number) => {
    const data = Buffer.alloc(size * size);
    for (let y = 0; y < size; y += 1)
      for (let x = 0; x < size; x += 1) data[y * size + x] = ((x >> 3) + (y >> 3)) % 2 ? 255 : 0;
    return sharp(data, { raw: { width: size, height: size, channels: 1 } })
      .png()
      .toBuffer();
  };

  /** Mean distance of the red channel from 128 over a grid of samples: the squares are ~128, flat grey ~0. */
  const spread = async (png: Buffer) => {
    const out = await rgba(png);
    let sum = 0;
    let count = 0;
    for (let y = 5; y < out.height; y += 50)
      for (let x = 5; x < out.width; x += 50) {
        sum += Math.abs(out.at(x, y)[0]! - 128);
        count += 1;
      }
    return sum / count;
  };

  it('blurs 8 areas of 100000×100000 on a 2000×2000 image as one box, in a few pipelines', async () => {
    const input = await checkerboard(2000);
    expect(await spread(input)).toBeGreaterThan(100);
    const areas = Array.from({ length: 8 }, (_, i) => ({
      x: i * 1000,
      y: i * 7,
      width: 100_000,
      height: 100_000,
    }));
    const before = imageSlotCounters().started;
    const res = await post('/api/blur-face', { areas: JSON.stringify(areas) }, input);
    expect(res.statusCode, res.body).toBe(200);
    // Load, size, shrink and blur, grow back, composite: not 8 blurs of the whole image.
    expect(imageSlotCounters().started - before).toBeLessThanOrEqual(5);
    const out = await rgba(res.rawPayload);
    expect([out.width, out.height]).toEqual([2000, 2000]);
    // Every pixel was in an area: the squares are grey everywhere.
    expect(await spread(res.rawPayload)).toBeLessThan(12);
  });

  it(`runs at most ${IMAGE_SLOTS} pipelines at once, and another tool's small upload still succeeds`, async () => {
    const input = await noisePng(1000, 1000);
    const areas = JSON.stringify(
      Array.from({ length: 8 }, (_, i) => ({
        x: (i % 4) * 250,
        y: Math.floor(i / 4) * 500,
        width: 100,
        height: 100,
      })),
    );
    const blurs = Array.from({ length: 4 }, () => post('/api/blur-face', { areas }, input));
    const small = post('/api/convert', { format: 'png' }, await pngBytes());
    const answers = await Promise.all([...blurs, small]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(imageSlotCounters().peak).toBeGreaterThanOrEqual(1);
    expect(imageSlotCounters().peak).toBeLessThanOrEqual(IMAGE_SLOTS);
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
  });
});
