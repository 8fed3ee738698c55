import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import * as fixtures from '../test/image-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** A logo-like PNG: a soft-edged coloured disc with gradients on a transparent background. */
async function logoPng(size = 600) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
    <defs><radialGradient id="g"><stop offset="0" stop-color="#ffcc00"/><stop offset="1" stop-color="#cc2200"/></radialGradient></defs>
    <circle cx="${size / 2}" cy="${size / 2}" r="${size * 0.4}" fill="url(#g)"/>
    <text x="${size * 0.2}" y="${size * 0.55}" font-size="${size / 6}" fill="#fff">Logo</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('compress keeps the format, never grows', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (fields: Record<string, string>, content: Buffer, filename: string, as = token) =>
    postForm(t.app, '/api/compress', { token: as, fields, file: { filename, content } });

  it('a PNG with alpha comes back a smaller PNG with its transparency', async () => {
    const logo = await logoPng();
    const res = await post({}, logo, 'logo.png');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe('attachment; filename="logo-compressed.png"');
    expect(res.rawPayload.length).toBeLessThan(logo.length);
    const { data, info } = await sharp(res.rawPayload)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    // The corner is still fully transparent, the centre still opaque.
    expect(data[3]).toBe(0);
    expect(data[(300 * info.width + 300) * 4 + 3]).toBe(255);
  });

  it('a JPEG photo stays a smaller JPEG; a WebP stays WebP', async () => {
    const photo = await fixtures.photoJpeg(1200, 900);
    const jpeg = await post({}, photo, 'IMG_1054.JPG');
    expect(jpeg.statusCode, jpeg.body).toBe(200);
    expect(jpeg.headers['content-disposition']).toBe(
      'attachment; filename="IMG_1054-compressed.JPG"',
    );
    expect((await sharp(jpeg.rawPayload).metadata()).format).toBe('jpeg');
    expect(jpeg.rawPayload.length).toBeLessThan(photo.length);
    expect(Number(jpeg.headers['x-original-size'])).toBe(photo.length);
    expect(Number(jpeg.headers['x-compressed-size'])).toBe(jpeg.rawPayload.length);

    const webp = await sharp(photo).webp({ quality: 95 }).toBuffer();
    const res = await post({}, webp, 'photo.webp');
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.rawPayload.length).toBeLessThan(webp.length);
  });

  it('keepFormat=false gives JPEG, the fixed format of Compress', async () => {
    const res = await post({ keepFormat: 'false' }, await logoPng(), 'logo.png');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="logo-compressed.jpg"');
  });

  it('refuses to grow a file with already_compact, says what to try, charges nothing', async () => {
    const basic = await registerUser(t.app);
    const small = await sharp(await fixtures.photoJpeg(400, 300))
      .jpeg({ quality: 20 })
      .toBuffer();
    const res = await post({ quality: '100' }, small, 'small.jpg', basic.token);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'already_compact',
      error: expect.stringContaining('lower quality'),
    });
    const stats = (
      await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(basic.token) })
    ).json();
    const used = stats.usage.find(
      (u: { service: string }) => u.service === 'optimize-compress',
    ).used;
    expect(used).toBe(0);
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
  });

  describe('keeps TIFF, GIF and HEIC in their own format', () => {
    it('a TIFF stays a smaller TIFF', async () => {
      const tiff = await sharp(await fixtures.photoJpeg(600, 400))
        .tiff()
        .toBuffer();
      const res = await post({}, tiff, 'b5.tiff');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/tiff');
      expect(res.headers['content-disposition']).toBe('attachment; filename="b5-compressed.tiff"');
      expect((await sharp(res.rawPayload).metadata()).format).toBe('tiff');
      expect(res.rawPayload.length).toBeLessThan(tiff.length);
    });

    it.skipIf(!fixtures.hasFfmpeg)('an animated GIF stays an animated GIF', async () => {
      const gif = await sharp(fixtures.animatedGif(), { animated: true })
        .resize(320)
        .gif({ colours: 256, effort: 1 })
        .toBuffer();
      const res = await post({ quality: '60' }, gif, 'clip.gif');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/gif');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'gif', pages: 5, width: 320 });
      expect(res.rawPayload.length).toBeLessThan(gif.length);
    });

    it.skipIf(!fixtures.hasGifsicle)(
      'a real, already optimised animated GIF gets smaller as quality falls, its frames kept',
      async () => {
        const gif = fixtures.realAnimatedGif();
        const sizes: number[] = [];
        for (const quality of ['80', '40']) {
          const res = await post({ quality }, gif, 'dance.gif');
          expect(res.statusCode, `${quality}: ${res.body}`).toBe(200);
          expect(await sharp(res.rawPayload).metadata()).toMatchObject({
            format: 'gif',
            pages: 10,
          });
          sizes.push(res.rawPayload.length);
        }
        expect(sizes[0]).toBeLessThan(gif.length);
        expect(sizes[1]).toBeLessThan(sizes[0]!);
      },
    );

    it.skipIf(!fixtures.hasLibheif)('a HEIC stays a HEIC that libheif reads', async () => {
      const heic = await fixtures.heicPhoto(640, 480);
      const res = await post({ quality: '50' }, heic, 'IMG_0001.HEIC');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/heic');
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="IMG_0001-compressed.HEIC"',
      );
      expect(res.rawPayload.toString('latin1', 4, 12)).toBe('ftypheic');
      expect(res.rawPayload.length).toBeLessThan(heic.length);
    });

    it.skipIf(!fixtures.hasLibheif)(
      'a HEIC with the sRGB profile most cameras embed is compressed, its profile kept',
      async () => {
        const heic = await fixtures.heicPhoto(640, 480, 'hp-srgb');
        const res = await post({ quality: '50' }, heic, 'IMG_0002.HEIC');
        expect(res.statusCode, res.body).toBe(200);
        expect(res.rawPayload.toString('latin1', 4, 12)).toBe('ftypheic');
        const back = await postForm(t.app, '/api/convert', {
          token,
          fields: { format: 'jpg' },
          file: { filename: 'IMG_0002.HEIC', content: res.rawPayload },
        });
        expect(back.statusCode, back.body).toBe(200);
        expect((await sharp(back.rawPayload).metadata()).icc).toEqual(fixtures.hpSrgbProfile());
      },
    );

    it('a BMP, which has no lossy form, becomes a JPEG as the page says', async () => {
      const photo = await fixtures.photoJpeg(200, 100);
      const bmp = await postForm(t.app, '/api/convert', {
        token,
        fields: { format: 'bmp' },
        file: { filename: 'scan.jpg', content: photo },
      });
      expect(bmp.statusCode, bmp.body).toBe(200);
      const res = await post({}, bmp.rawPayload, 'scan.bmp');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="scan-compressed.jpg"');
    });
  });

  it('refuses an SVG with svg_not_compressible and a reason, charging nothing', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="10"/></svg>',
    );
    const res = await post({}, svg, 'icon.svg');
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('svg_not_compressible');
    expect(res.json().error).toContain('convert it to PNG or WebP');
    expect(res.json().error).not.toContain('lower quality');
  });

  it('refuses a result past the pixel limit before encoding, every frame counted, uncharged', async () => {
    const user = await registerUser(t.app);
    const tiny = await fixtures.pngBytes(1, 1);
    const frame = (background: string) =>
      sharp({ create: { width: 2, height: 2, channels: 3, background } })
        .gif()
        .toBuffer();
    const frames = await sharp(await Promise.all(['#f00', '#0f0', '#00f'].map(frame)), {
      join: { animated: true },
    })
      .gif()
      .toBuffer();
    expect((await sharp(frames).metadata()).pages).toBeGreaterThanOrEqual(2);
    for (const [fields, content, name] of [
      [{ width: '16384', height: '16384' }, tiny, 'dot.png'],
      [{ width: '16384' }, tiny, 'dot.png'],
      // Frames of 8000² are 128 MP or more together: each frame alone would pass.
      [{ width: '8000', keepFormat: 'true' }, frames, 'blink.gif'],
    ] as const) {
      const res = await post(fields, content, name, user.token);
      expect(res.statusCode, name).toBe(422);
      expect(res.json().code, name).toBe('image_too_large');
      expect(res.headers['x-quota-remaining']).toBe(res.headers['x-quota-limit']);
    }
    expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]);
  });
});
