import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fixtures from '../test/image-fixtures.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Every editor and transform writes the input's own format, named after the upload, and a
 * JPEG photo does not come back inflated (rotate once turned 2.6 MB into 11 MB).
 */
describe('editors keep the format and the name', () => {
  let t: TestApp;
  let token: string;
  let photo: Buffer;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
    photo = await fixtures.photoJpeg();
  });
  afterAll(() => t.close());

  const post = (path: string, fields: Record<string, string>, content: Buffer, filename: string) =>
    postForm(t.app, path, { token, fields, file: { filename, content } });

  const TOOLS: [string, string, Record<string, string>, string][] = [
    ['rotate', '/api/rotate', { angle: '90' }, 'IMG_1054-rotated.jpg'],
    [
      'crop',
      '/api/crop',
      { x: '100', y: '100', width: '1600', height: '1200' },
      'IMG_1054-cropped.jpg',
    ],
    [
      'watermark',
      '/api/watermark',
      { text: 'Refract', opacity: '0.5' },
      'IMG_1054-watermarked.jpg',
    ],
    ['resize', '/api/resize', { width: '1000' }, 'IMG_1054-1000x750.jpg'],
    ['meme', '/api/meme', { topText: 'TOP', bottomText: 'BOTTOM' }, 'IMG_1054-meme.jpg'],
    [
      'blur face',
      '/api/blur-face',
      { areas: JSON.stringify([{ x: 500, y: 400, width: 300, height: 300 }]) },
      'IMG_1054-blurred.jpg',
    ],
  ];

  it.each(TOOLS)(
    '%s: a JPEG photo in gives a JPEG at most 1.2× its size, named after it',
    async (_name, path, fields, name) => {
      const res = await post(path, fields, photo, 'IMG_1054.jpg');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
      expect((await sharp(res.rawPayload).metadata()).format).toBe('jpeg');
      expect(res.rawPayload.length).toBeLessThanOrEqual(photo.length * 1.2);
    },
  );

  it('upscale: a JPEG stays a JPEG named after it', async () => {
    const small = await sharp(photo).resize(400).jpeg({ quality: 90 }).toBuffer();
    const res = await post('/api/upscale', {}, small, 'IMG_1054.jpg');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="IMG_1054-upscaled.jpg"');
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 800 });
  });

  it('a q75 JPEG is written back near q75, not inflated to q90', async () => {
    const q75 = await sharp(photo).jpeg({ quality: 75 }).toBuffer();
    const res = await post('/api/rotate', { angle: '180' }, q75, 'web.jpg');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.length).toBeLessThanOrEqual(q75.length * 1.2);
  });

  it('PNG with alpha stays PNG with alpha; WebP stays WebP', async () => {
    const png = await fixtures.transparentPng();
    const fromPng = await post('/api/rotate', { angle: '90' }, png, 'logo.png');
    expect(fromPng.headers['content-type']).toBe('image/png');
    expect(fromPng.headers['content-disposition']).toContain('logo-rotated.png');
    expect(await sharp(fromPng.rawPayload).metadata()).toMatchObject({
      format: 'png',
      hasAlpha: true,
    });

    const webp = await sharp(photo).resize(300).webp().toBuffer();
    const fromWebp = await post(
      '/api/crop',
      { x: '0', y: '0', width: '100', height: '100' },
      webp,
      'a.webp',
    );
    expect(fromWebp.headers['content-type']).toBe('image/webp');
    expect(fromWebp.headers['content-disposition']).toContain('a-cropped.webp');
  });

  it('formats sharp cannot write become PNG; no name gives the fixed name', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="red"/></svg>',
    );
    const res = await post('/api/rotate', { angle: '90' }, svg, '.svg');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="rotated-image.png"');
  });

  it('a name in another script travels in filename*', async () => {
    const res = await post('/api/rotate', { angle: '90' }, await fixtures.pngBytes(), '写真.png');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="__-rotated.png"; filename*=UTF-8''%E5%86%99%E7%9C%9F-rotated.png`,
    );
  });
});

describe('upscale is bounded by the result, not the upload', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  /** The fast method (lanczos), whose bound is the result's 64 megapixels. */
  const upscale = (content: Buffer) =>
    postForm(t.app, '/api/upscale', {
      token,
      fields: { method: 'fast' },
      file: { filename: 'in.png', content },
    });

  it('takes a 3 MB upload (the old limit was 2 MB)', async () => {
    const noisy = await sharp({
      create: {
        width: 1000,
        height: 1000,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(2.5 * 1024 * 1024);
    const res = await upscale(noisy);
    expect(res.statusCode, res.body).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 2000, height: 2000 });
  });

  it('refuses an image whose double would pass 64 megapixels, before any work', async () => {
    const res = await upscale(await fixtures.pngBytes(4100, 4000));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'image_too_large',
      error: expect.stringContaining('64 megapixels'),
    });
  });
});
