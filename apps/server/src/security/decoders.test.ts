import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasFfmpeg, hasLibheif, heicOf, photoJpeg, pngBytes } from '../test/image-fixtures.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { VIDEO_MAX_SIDE } from '../tools/image-output.js';
import { heicDeclaring, rle8Bmp } from './hostile-images.js';
import { watchLoopTwiceIfSlow } from './loop-watch.js';

/** Decoders other than libvips run off the event loop, inside the image slots, header first. */
describe('decoders outside libvips', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  }, 60_000);
  afterAll(() => t.close());

  const post = (path: string, fields: Record<string, string>, content: Buffer, name = 'in.bin') =>
    postForm(t.app, path, { token, fields, file: { field: 'image', filename: name, content } });

  it('refuses an 820 KB RLE8 BMP of 9999×9999 at detect-faces, from its header', async () => {
    const res = await post('/api/detect-faces', {}, rle8Bmp(9999), 'bomb.bmp');
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().code).toBe('image_too_large');
  });

  it('decodes a 12 MP BMP through ImageMagick in its worker, leaving the event loop free', async () => {
    const { result: res, maxMs } = await watchLoopTwiceIfSlow(() =>
      post('/api/convert', { format: 'png' }, rle8Bmp(3464), 'scan.bmp'),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 3464, height: 3464 });
    expect(maxMs).toBeLessThan(200);
  });

  describe.skipIf(!hasLibheif)('HEIC', () => {
    it('refuses a HEIC that declares a 16384×16384 image (a grid bomb) before decoding', async () => {
      const heic = heicDeclaring(await heicOf([[96, 96]]), [96, 96], 16_384, 16_384);
      const res = await post('/api/detect-faces', {}, heic, 'grid.heic');
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe('image_too_large');
    });

    it('refuses a HEIC whose second image is 20480×20480 behind a small first one', async () => {
      const heic = heicDeclaring(
        await heicOf([
          [512, 512],
          [64, 32],
        ]),
        [64, 32],
        20_480,
        20_480,
      );
      const res = await post('/api/convert', { format: 'png' }, heic, 'two.heic');
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe('image_too_large');
    });

    it('decodes the primary image of a HEIC that holds two', async () => {
      const res = await post(
        '/api/convert',
        { format: 'png' },
        await heicOf([
          [96, 64],
          [32, 48],
        ]),
        'two.heic',
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 96, height: 64 });
    });
  });

  describe.skipIf(!hasFfmpeg)('image to video', () => {
    it(`makes a 4000×4000 PNG into a clip at most ${VIDEO_MAX_SIDE} px a side`, async () => {
      const png = await sharp(await photoJpeg(4000, 4000))
        .png({ compressionLevel: 1 })
        .toBuffer();
      const res = await post('/api/convert', { format: 'mp4' }, png, 'big.png');
      expect(res.statusCode, res.body).toBe(200);
      const dir = mkdtempSync(join(tmpdir(), 'refract-clip-'));
      try {
        const path = join(dir, 'clip.mp4');
        writeFileSync(path, res.rawPayload);
        const size = execFileSync('ffprobe', [
          ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height'],
          ...['-of', 'csv=p=0', path],
        ])
          .toString()
          .trim();
        expect(size).toBe(`${VIDEO_MAX_SIDE},${VIDEO_MAX_SIDE}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);

    it('keeps a small image at its own size', async () => {
      const res = await post(
        '/api/convert',
        { format: 'mp4' },
        await pngBytes(64, 48),
        'small.png',
      );
      expect(res.statusCode, res.body).toBe(200);
    });
  });
});
