import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { registerSubscriber } from '../test/plans.js';
import * as fixtures from '../test/image-fixtures.js';
import { leftIn, multipart, postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { decodeToPng, encodeFromPng } from '../media/image/magick.js';

describe('image tools', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    // Unlimited, so the format matrix is not cut short by Basic's 3 uses.
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (
    path: string,
    fields: Record<string, string>,
    content?: Buffer,
    as = token,
    filename = 'upload.png',
  ) =>
    postForm(t.app, path, {
      token: as,
      fields,
      file: content && { field: 'image', filename, content },
    });

  const tmpIsEmpty = () => leftIn(t.database.options.dataDir, 'tmp').length === 0;

  describe('convert', () => {
    const sharpFormats: [string, string][] = [
      ['jpeg', 'jpeg'],
      ['jpg', 'jpeg'],
      ['png', 'png'],
      ['webp', 'webp'],
      ['avif', 'heif'],
      ['tiff', 'tiff'],
      ['gif', 'gif'],
    ];
    it.each(sharpFormats)('writes %s that decodes with the right size', async (format, decoded) => {
      const res = await post('/api/convert', { format }, await fixtures.pngBytes(40, 30));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="upload.${format}"`);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: decoded, width: 40, height: 30 });
    });

    it.each(['bmp', 'ico', 'cur', 'pcx', 'tga', 'psd', 'dds'] as const)(
      'writes %s through ImageMagick',
      async (format) => {
        const res = await post('/api/convert', { format }, await fixtures.pngBytes(40, 30));
        expect(res.statusCode, res.body).toBe(200);
        const name = (format.charAt(0).toUpperCase() + format.slice(1)) as 'Bmp';
        const back = await sharp(await decodeToPng(res.rawPayload, name)).metadata();
        expect([back.width, back.height]).toEqual([40, 30]);
      },
    );

    it.each([
      ['pdf', '%PDF'],
      ['eps', '%!PS'],
    ])('writes %s with its signature', async (format, signature) => {
      const res = await post('/api/convert', { format }, await fixtures.pngBytes());
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe(signature);
    });

    it.skipIf(!fixtures.hasFfmpeg).each(['mp4', 'webm', 'mov'])(
      'makes a %s video from an animated GIF',
      async (format) => {
        const res = await post(
          '/api/convert',
          { format },
          fixtures.animatedGif(),
          token,
          'anim.gif',
        );
        expect(res.statusCode, res.body).toBe(200);
        const file = join(t.database.options.dataDir, `probe.${format}`);
        writeFileSync(file, res.rawPayload);
        const probe = execFileSync('ffprobe', [
          '-v',
          'error',
          '-show_entries',
          'stream=width,height',
          '-of',
          'csv=p=0',
          file,
        ])
          .toString()
          .trim();
        expect(probe).toBe('32,24');
      },
    );

    it.skipIf(!fixtures.hasFfmpeg)('keeps an animated GIF animated as WEBP', async () => {
      const res = await post(
        '/api/convert',
        { format: 'webp' },
        fixtures.animatedGif(),
        token,
        'a.gif',
      );
      expect((await sharp(res.rawPayload).metadata()).pages).toBe(5);
    });

    it.each(['xcf', 'cdr'])(
      'refuses %s honestly with unsupported_output_format',
      async (format) => {
        const res = await post('/api/convert', { format }, await fixtures.pngBytes());
        expect(res.statusCode).toBe(422);
        expect(res.json().code).toBe('unsupported_output_format');
      },
    );

    it('refuses a format outside the list', async () => {
      const res = await post('/api/convert', { format: 'exe' }, await fixtures.pngBytes());
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    });

    it.each([
      ['a 16-bit PNG', fixtures.png16, 24, 16],
      ['a CMYK JPEG', fixtures.cmykJpeg, 30, 20],
      ['a transparent PNG', fixtures.transparentPng, 32, 32],
      ['an EXIF-rotated JPEG (applied)', fixtures.rotatedJpeg, 20, 40],
    ])('reads %s', async (_, make, width, height) => {
      const res = await post('/api/convert', { format: 'png' }, await make());
      expect(res.statusCode, res.body).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([width, height]);
      expect(meta.exif).toBeUndefined();
    });

    it.each(['Bmp', 'Ico', 'Psd', 'Tga', 'Pcx', 'Dds'] as const)(
      'reads a %s input (via ImageMagick)',
      async (format) => {
        const input = await encodeFromPng(await fixtures.pngBytes(40, 30), format);
        const res = await post(
          '/api/convert',
          { format: 'png' },
          input,
          token,
          `in.${format.toLowerCase()}`,
        );
        expect(res.statusCode, res.body).toBe(200);
        expect(await sharp(res.rawPayload).metadata()).toMatchObject({
          format: 'png',
          width: 40,
          height: 30,
        });
        // After a success the work directory goes when the response stream closes.
        await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
      },
    );

    it('reads an SVG without running its script, keeping its links inside the file', async () => {
      const res = await post(
        '/api/convert',
        { format: 'png' },
        fixtures.svgWithScript(),
        token,
        'x.svg',
      );
      expect(res.statusCode, res.body).toBe(200);
      expect((await sharp(res.rawPayload).metadata()).width).toBe(20);
    });
  });

  describe('hostile and broken inputs', () => {
    it.each([
      ['a truncated JPEG', fixtures.truncatedJpeg, 422, 'invalid_image'],
      ['a PNG that declares 30000×30000', fixtures.bombPng, 422, 'image_too_large'],
      ['a text file named .png', async () => fixtures.textAsPng(), 415, 'unsupported_media_type'],
      [
        'an SVG with an external entity',
        async () => fixtures.svgWithEntity(),
        422,
        'invalid_image',
      ],
    ])(
      'answers %s with its code, charges nothing and leaves no temp file',
      async (_, make, status, code) => {
        const before = (
          await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })
        ).json();
        const res = await post('/api/convert', { format: 'webp' }, await make());
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json().code).toBe(code);
        const after = (
          await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })
        ).json();
        expect(after.imagesProcessed).toBe(before.imagesProcessed);
        await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
      },
    );

    it('cuts off a file over the tool limit with 413 file_too_large', async () => {
      const big = Buffer.alloc(10 * 1024 * 1024 + 10, 1);
      const res = await post('/api/upscale', {}, big);
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({
        code: 'file_too_large',
        error: expect.stringContaining('10 MB'),
      });
      await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
    });

    it('needs a file, a multipart body and a signed-in user', async () => {
      expect((await post('/api/convert', { format: 'png' })).json().code).toBe('no_file');
      const json = await t.app.inject({
        method: 'POST',
        url: '/api/convert',
        payload: { format: 'png' },
        headers: bearer(token),
      });
      expect(json.json().code).toBe('unsupported_media_type');
      const body = multipart(
        { format: 'png' },
        { filename: 'a.png', content: await fixtures.pngBytes() },
      );
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/convert',
        payload: body.payload,
        headers: body.headers,
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('compress, rotate, upscale', () => {
    it('compresses to JPEG, keeps the aspect with one side given, and reports both sizes', async () => {
      const photo = await sharp({
        create: {
          width: 400,
          height: 200,
          channels: 3,
          background: '#000',
          noise: { type: 'gaussian', mean: 120, sigma: 30 },
        },
      })
        .png()
        .toBuffer();
      const res = await post(
        '/api/compress',
        { quality: '40', width: '100', keepFormat: 'false' },
        photo,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toContain('upload-compressed.jpg');
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({
        format: 'jpeg',
        width: 100,
        height: 50,
      });
      expect(Number(res.headers['x-original-size'])).toBe(photo.length);
      expect(Number(res.headers['x-compressed-size'])).toBe(res.rawPayload.length);
      expect(res.rawPayload.length).toBeLessThan(photo.length);
    });

    it.each([
      ['90', 20, 40],
      ['-90', 20, 40],
      ['180', 40, 20],
      ['-270', 20, 40],
    ])('rotates by %s°', async (angle, width, height) => {
      const res = await post('/api/rotate', { angle }, await fixtures.pngBytes(40, 20));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toContain('upload-rotated.png');
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({
        width,
        height,
        format: 'png',
      });
    });

    it('refuses an angle that is not a number', async () => {
      const res = await post('/api/rotate', { angle: 'ninety' }, await fixtures.pngBytes());
      expect(res.statusCode).toBe(400);
    });

    it('upscales to twice the width and height', async () => {
      const res = await post('/api/upscale', {}, await fixtures.pngBytes(40, 30));
      expect(res.statusCode).toBe(200);
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 80, height: 60 });
    });
  });

  describe('metering', () => {
    it('charges the right service only on success, with quota headers', async () => {
      const basic = await registerUser(t.app);
      const ok = await post(
        '/api/convert',
        { format: 'jpg' },
        await fixtures.pngBytes(),
        basic.token,
      );
      expect(ok.headers['x-quota-remaining']).toBe('2');
      await post('/api/convert', { format: 'jpg' }, fixtures.textAsPng(), basic.token);
      const stats = (
        await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(basic.token) })
      ).json();
      const used = (service: string) =>
        stats.usage.find((u: { service: string }) => u.service === service).used;
      expect(used('convert-to-jpg')).toBe(1);
      expect(used('convert-from-jpg')).toBe(0);
    });

    it('refuses a 4th Basic rotate with quota_exceeded', async () => {
      const basic = await registerUser(t.app);
      for (let i = 0; i < 3; i += 1)
        expect(
          (await post('/api/rotate', { angle: '90' }, await fixtures.pngBytes(), basic.token))
            .statusCode,
        ).toBe(200);
      const res = await post(
        '/api/rotate',
        { angle: '90' },
        await fixtures.pngBytes(),
        basic.token,
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('quota_exceeded');
      expect(res.headers['x-quota-remaining']).toBe('0');
      await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
    });
  });

  it('lists formats with what this server can read and write', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/formats' });
    const formats = res.json().formats as {
      format: string;
      read: boolean;
      write: boolean;
      reason?: string;
    }[];
    expect(formats.find((f) => f.format === 'webp')).toMatchObject({ read: true, write: true });
    expect(formats.find((f) => f.format === 'xcf')).toMatchObject({
      write: false,
      reason: expect.any(String),
    });
    expect(formats).toHaveLength(27);
  });
});
