import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import * as fixtures from '../test/image-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { rgba } from '../test/pixels.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

describe('resize', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (
    fields: Record<string, string>,
    content?: Buffer,
    filename = 'in.png',
    as = token,
  ) =>
    postForm(t.app, '/api/resize', { token: as, fields, file: content && { filename, content } });

  /** Left half red, right half blue. */
  const halves = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
      .composite([
        {
          input: { create: { width: width / 2, height, channels: 3, background: '#0000ff' } },
          left: width / 2,
          top: 0,
        },
      ])
      .png()
      .toBuffer();

  const size = async (body: Buffer) => {
    const meta = await sharp(body).metadata();
    return [meta.width, meta.height];
  };
  const exact = { keepAspect: 'false' };

  describe('fit modes, by pixels', () => {
    it('contain pads to exactly width × height with the background colour', async () => {
      const res = await post(
        { ...exact, width: '100', height: '100', fit: 'contain', background: '#00ff00' },
        await halves(200, 100),
      );
      expect(res.statusCode, res.body).toBe(200);
      const out = await rgba(res.rawPayload);
      expect([out.width, out.height]).toEqual([100, 100]);
      expect(out.at(50, 2)).toEqual([0, 255, 0, 255]);
      expect(out.at(10, 50)).toEqual([255, 0, 0, 255]);
      expect(out.at(90, 50)).toEqual([0, 0, 255, 255]);
      expect(res.headers['x-original-dimensions']).toBe('200x100');
      expect(res.headers['x-result-dimensions']).toBe('100x100');
    });

    it('cover fills width × height and crops the overflow around the centre', async () => {
      const res = await post(
        { ...exact, width: '100', height: '100', fit: 'cover' },
        await halves(200, 100),
      );
      const out = await rgba(res.rawPayload);
      expect([out.width, out.height]).toEqual([100, 100]);
      expect(out.at(5, 50)).toEqual([255, 0, 0, 255]);
      expect(out.at(95, 50)).toEqual([0, 0, 255, 255]);
    });

    it('stretch gives exactly width × height, shape not kept', async () => {
      const res = await post(
        { ...exact, width: '50', height: '80', fit: 'stretch' },
        await halves(200, 100),
      );
      expect(await size(res.rawPayload)).toEqual([50, 80]);
    });

    it('with the aspect kept, fits inside the box; one side sets the other', async () => {
      const input = await halves(200, 100);
      expect(await size((await post({ width: '100', height: '100' }, input)).rawPayload)).toEqual([
        100, 50,
      ]);
      expect(await size((await post({ width: '50' }, input)).rawPayload)).toEqual([50, 25]);
      expect(await size((await post({ height: '20' }, input)).rawPayload)).toEqual([40, 20]);
    });
  });

  it('resizes by percentage', async () => {
    const res = await post({ mode: 'percentage', percentage: '25' }, await halves(200, 100));
    expect(res.statusCode, res.body).toBe(200);
    expect(await size(res.rawPayload)).toEqual([50, 25]);
  });

  it('never enlarges unless asked', async () => {
    const input = await halves(200, 100);
    const cases: [Record<string, string>, number[]][] = [
      [{ width: '400' }, [200, 100]],
      [{ mode: 'percentage', percentage: '300' }, [200, 100]],
      // The target's shape is kept, at the largest size the image fills without enlarging.
      [{ ...exact, width: '1000', height: '1000', fit: 'cover' }, [100, 100]],
      [{ ...exact, width: '1000', height: '1000', fit: 'stretch' }, [100, 100]],
      [{ ...exact, width: '1000', height: '1000', fit: 'contain' }, [200, 200]],
      [{ width: '400', allowEnlarge: 'true' }, [400, 200]],
      [{ mode: 'percentage', percentage: '150', allowEnlarge: 'true' }, [300, 150]],
      [{ ...exact, width: '1000', height: '1000', allowEnlarge: 'true' }, [1000, 1000]],
    ];
    for (const [fields, expected] of cases) {
      const res = await post(fields, input);
      expect(res.statusCode, res.body).toBe(200);
      expect(await size(res.rawPayload), JSON.stringify(fields)).toEqual(expected);
    }
  });

  describe('format and name', () => {
    it('keeps JPEG as JPEG, named <name>-WxH.jpg', async () => {
      const jpeg = await sharp(await halves(200, 100))
        .jpeg()
        .toBuffer();
      const res = await post(
        { ...exact, width: '100', height: '100', fit: 'cover' },
        jpeg,
        'IMG_1054.jpg',
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="IMG_1054-100x100.jpg"',
      );
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 100, height: 100 });
    });

    it('keeps PNG and WebP; formats sharp cannot write become PNG', async () => {
      const webp = await sharp(await halves(200, 100))
        .webp()
        .toBuffer();
      const fromWebp = await post({ width: '50' }, webp, 'photo.webp');
      expect(fromWebp.headers['content-disposition']).toContain('photo-50x25.webp');
      expect((await sharp(fromWebp.rawPayload).metadata()).format).toBe('webp');

      const fromPng = await post({ width: '50' }, await halves(200, 100), 'photo.png');
      expect(fromPng.headers['content-type']).toBe('image/png');

      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="red"/></svg>',
      );
      const fromSvg = await post({ width: '20' }, svg, 'logo.svg');
      expect(fromSvg.statusCode, fromSvg.body).toBe(200);
      expect(fromSvg.headers['content-disposition']).toContain('logo-20x10.png');
      expect((await sharp(fromSvg.rawPayload).metadata()).format).toBe('png');
    });

    it('falls back to resized-image.<ext> without a name', async () => {
      const res = await post({ width: '50' }, await halves(200, 100), '.png');
      expect(res.headers['content-disposition']).toBe('attachment; filename="resized-image.png"');
    });
  });

  it('applies the EXIF orientation before resizing', async () => {
    // Stored 40×20 with orientation 6: shown 20×40.
    const res = await post({ width: '10' }, await fixtures.rotatedJpeg(), 'turned.jpg');
    expect(res.statusCode, res.body).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([10, 20]);
    expect(meta.orientation ?? 1).toBe(1);
    expect(res.headers['content-disposition']).toContain('turned-10x20.jpg');
  });

  it.skipIf(!fixtures.hasFfmpeg)('keeps an animated GIF animated, at the new size', async () => {
    const res = await post({ width: '16' }, fixtures.animatedGif(), 'clip.gif');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('clip-16x12.gif');
    const meta = await sharp(res.rawPayload, { animated: true }).metadata();
    expect(meta).toMatchObject({ format: 'gif', width: 16, pageHeight: 12, pages: 5 });
  });

  it.skipIf(!fixtures.hasFfmpeg)('keeps an animated WebP animated, cropped by cover', async () => {
    const webp = await sharp(fixtures.animatedGif(), { animated: true }).webp().toBuffer();
    const res = await post(
      { ...exact, width: '12', height: '12', fit: 'cover' },
      webp,
      'loop.webp',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('loop-12x12.webp');
    const meta = await sharp(res.rawPayload, { animated: true }).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 12, pageHeight: 12, pages: 5 });
  });

  describe('bad requests: a clear code, nothing charged, no temp file left', () => {
    const stats = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })).json()
        .imagesProcessed as number;
    const tmpIsEmpty = () => leftIn(t.database.options.dataDir, 'tmp').length === 0;

    it.each([
      [{ width: '100000' }, 'width'],
      [{ width: '0' }, 'width'],
      [{ width: '12.5' }, 'width'],
      [{ width: 'wide' }, 'width'],
      [{}, 'width'],
      [{ mode: 'percentage' }, 'percentage'],
      [{ mode: 'percentage', percentage: '0' }, 'percentage'],
      [{ mode: 'percentage', percentage: '5000' }, 'percentage'],
      [{ mode: 'inches', width: '10' }, 'mode'],
      [{ width: '10', fit: 'squash' }, 'fit'],
      [{ width: '10', background: 'red' }, 'background'],
      [{ width: '10', allowEnlarge: 'yes' }, 'allowEnlarge'],
    ])('%j → 400 validation_failed naming %s', async (fields, field) => {
      const before = await stats();
      const res = await post(fields, await fixtures.pngBytes());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().error).toContain(`Invalid ${field}:`);
      expect(await stats()).toBe(before);
      await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
    });

    it('refuses damaged, empty, wrong-type, oversize and too-many-pixel inputs', async () => {
      const before = await stats();
      const huge = { ...exact, width: '16000', height: '16000', allowEnlarge: 'true' };
      const cases: [Record<string, string>, Buffer | undefined, number, string][] = [
        [{ width: '10' }, undefined, 400, 'no_file'],
        [{ width: '10' }, Buffer.alloc(0), 400, 'no_file'],
        [{ width: '10' }, fixtures.textAsPng(), 415, 'unsupported_media_type'],
        [{ width: '10' }, await fixtures.truncatedJpeg(), 422, 'invalid_image'],
        [{ width: '10' }, await fixtures.bombPng(), 422, 'image_too_large'],
        [{ width: '10' }, Buffer.alloc(10 * 1024 * 1024 + 10, 1), 413, 'file_too_large'],
        [huge, await fixtures.pngBytes(), 422, 'image_too_large'],
      ];
      for (const [fields, content, status, code] of cases) {
        const res = await post(fields, content);
        expect(res.statusCode, `${code}: ${res.body}`).toBe(status);
        expect(res.json().code).toBe(code);
      }
      expect(await stats()).toBe(before);
      await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
    });
  });

  it('charges modify-resize once on success', async () => {
    const basic = await registerUser(t.app);
    const res = await post({ width: '20' }, await fixtures.pngBytes(), 'a.png', basic.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-quota-remaining']).toBe('2');
    const usage = (
      await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(basic.token) })
    ).json().usage as { service: string; used: number }[];
    expect(usage.find((u) => u.service === 'modify-resize')?.used).toBe(1);
    expect(usage.filter((u) => u.used > 0)).toHaveLength(1);
  });
});
