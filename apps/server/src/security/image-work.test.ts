import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { connect, type AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { imageSlots, imageSlotCounters, inImageSlot, withTimeLimit } from '../media/image/slots.js';
import { renderText, textBoundsFor } from '../media/image/text.js';
import { bearer } from '../test/accounts.js';
import { pngBytes } from '../test/image-fixtures.js';
import { leftIn, multipart, postForm } from '../test/multipart.js';
import { noisePng, rgba } from '../test/pixels.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { watermarkText } from '../tools/watermark.js';
import { watermarkFieldsSchema } from '@refract/contracts';

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

  it.each([
    [{ style: 'pixelate', strength: '1' }, 5],
    [{ style: 'blur', strength: '10' }, 5],
    // Detection reads the image once for each level of its pyramid (three at 2000 px: 1024 px,
    // its own size, and half as large again).
    [{ style: 'box', detect: 'true' }, 7],
    [{ style: 'pixelate', detect: 'true' }, 8],
  ])('hides a 2000×2000 image whole with %j in at most %i pipelines', async (fields, most) => {
    const input = await checkerboard(2000);
    const areas = JSON.stringify([{ x: 0, y: 0, width: 100_000, height: 100_000 }]);
    const before = imageSlotCounters().started;
    const res = await post('/api/blur-face', { areas, ...fields }, input);
    expect(res.statusCode, res.body).toBe(200);
    expect(imageSlotCounters().started - before).toBeLessThanOrEqual(most);
  });

  it(`runs at most IMAGE_WORKERS pipelines at once, and another tool's small upload still succeeds`, async () => {
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
    expect(imageSlotCounters().peak).toBeLessThanOrEqual(imageSlots());
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
  });

  it("npm start grows libuv's pool by one thread per image slot, unless the operator set it", () => {
    const source = readFileSync(new URL('../thread-pool.cts', import.meta.url), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS },
    });
    const poolFor = (env: Record<string, string>) => {
      runInNewContext(outputText, {
        require: createRequire(import.meta.url),
        exports: {},
        process: { env },
      });
      return env.UV_THREADPOOL_SIZE;
    };
    expect(poolFor({ IMAGE_WORKERS: '3' })).toBe('7');
    expect(poolFor({ IMAGE_WORKERS: '3', UV_THREADPOOL_SIZE: '16' })).toBe('16');
  });

  const grey = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();

  it('holds a watermark of scale=3 previewWidth=12 to the image: font, outline and text size', async () => {
    const image = { width: 600, height: 400 };
    const fields = watermarkFieldsSchema.parse({ text: 'Refract', opacity: 1, scale: 3 });
    const asked = watermarkText({ ...fields, previewWidth: 12 }, image);
    // 40 px × 3 × 600/12 would be 6000 px, ten times the image's width.
    expect(asked.sizePx).toBe(600);
    // A long text at that size would cover 30 times the image; it is held to 1 MP here.
    const long = watermarkText({ ...fields, text: 'Refract '.repeat(6), previewWidth: 12 }, image);
    const text = await renderText(long);
    expect(textBoundsFor(image).maxPixels).toBe(1_000_000);
    expect(text.width * text.height).toBeLessThanOrEqual(1_000_000);
    const res = await post(
      '/api/watermark',
      { text: 'Refract', opacity: '1', scale: '3', previewWidth: '12' },
      await grey(image.width, image.height),
    );
    expect(res.statusCode, res.body).toBe(200);
    // An ordinary request keeps its size.
    expect(watermarkText({ ...fields, previewWidth: 300 }, image).sizePx).toBe(240);
  });

  it('answers 422 text_too_large when a watermark of scale=3 previewWidth=12 is too large to draw on a large image', async () => {
    // 25 MP of text is allowed on a 4000×3000 image: as one line it is wider than cairo's
    // 32767 px (was invalid_image), and turned 45° it covers 870 MP (was image_too_large).
    const image = await sharp({
      create: { width: 4000, height: 3000, channels: 3, background: '#808080' },
    })
      .jpeg()
      .toBuffer();
    const fields = { opacity: '1', scale: '3', previewWidth: '12' };
    for (const asked of [
      { text: 'W'.repeat(200), rotation: '0' },
      { text: 'Refract '.repeat(24), rotation: '45' },
    ]) {
      const res = await post('/api/watermark', { ...fields, ...asked }, image);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({
        code: 'text_too_large',
        error: 'The text is too large for this image: make it smaller or shorter',
      });
    }
  });

  it('bounds a text outline by the font size, whatever width is asked', async () => {
    const base = { text: 'A', font: 'text', sizePx: 100, color: '#ffffff' } as const;
    const plain = await renderText(base);
    const outlined = await renderText({ ...base, outlinePx: 200 });
    // At most a tenth of the font size on each side (and the blur's room for it, twice that).
    expect(outlined.width - plain.width).toBeLessThanOrEqual(4 * 10);
  });

  it('fails with processing_timeout past a time limit, and stops the steps not yet started', async () => {
    let seen: AbortSignal | undefined;
    const work = withTimeLimit(20, undefined, (signal) => {
      seen = signal;
      return new Promise<never>(() => {});
    });
    await expect(work).rejects.toMatchObject({ status: 504, code: 'processing_timeout' });
    expect(seen!.aborted).toBe(true);
    await expect(inImageSlot(() => Promise.resolve(1), seen)).rejects.toMatchObject({
      code: 'processing_timeout',
    });
  });

  it('stops the work of a client that went away: nothing charged, temp dir removed', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const used = async () =>
      (await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })).json()
        .imagesProcessed as number;
    const before = await used();
    // Every slot held, so that the request waits at its first step.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: imageSlots() }, () => inImageSlot(() => held));
    await vi.waitFor(() => expect(imageSlotCounters().active).toBe(imageSlots()));
    const started = imageSlotCounters().started;

    const { port } = t.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    const body = multipart(
      { text: 'Refract', scale: '3', previewWidth: '12' },
      { filename: 'in.png', content: await grey(600, 400) },
    );
    socket.write(
      `POST /api/watermark HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: ${body.headers['content-type']}\r\n` +
        `Content-Length: ${body.payload.length}\r\n\r\n`,
    );
    socket.write(body.payload);
    await vi.waitFor(() => expect(imageSlotCounters().waiting).toBe(1));
    socket.destroy();
    // The request leaves the queue as its client goes, before any slot is free.
    await vi.waitFor(() => expect(imageSlotCounters().waiting).toBe(0));
    release();
    await Promise.all(holders);
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
    expect(imageSlotCounters().started).toBe(started);
    expect(await used()).toBe(before);
  });
});
