import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largestUprightRect, turnedSize } from '@refract/contracts';
import { registerSubscriber } from '../test/plans.js';
import * as fixtures from '../test/image-fixtures.js';
import { postForm } from '../test/multipart.js';
import { rgba } from '../test/pixels.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Rotate by any angle: the result's size, corners and mirroring against the values sent. */
describe('rotate', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (fields: Record<string, string>, content: Buffer, filename = 'in.png') =>
    postForm(t.app, '/api/rotate', { token, fields, file: { field: 'image', filename, content } });

  /** 200 × 100: left half red, right half blue. */
  const halves = () =>
    sharp({ create: { width: 200, height: 100, channels: 4, background: '#ff0000ff' } })
      .composite([
        {
          input: { create: { width: 100, height: 100, channels: 4, background: '#0000ffff' } },
          left: 100,
          top: 0,
        },
      ])
      .png()
      .toBuffer();

  it('turns by 30°, the corners filled with the colour sent', async () => {
    const res = await post({ angle: '30', background: '#00ff00' }, await halves());
    expect(res.statusCode, res.body).toBe(200);
    const out = await rgba(res.rawPayload);
    const box = turnedSize(200, 100, 30);
    expect(out.width).toBeCloseTo(box.width, -0.5);
    expect(out.height).toBeCloseTo(box.height, -0.5);
    expect(out.at(0, 0)).toEqual([0, 255, 0, 255]);
    expect(out.at(out.width - 1, out.height - 1)).toEqual([0, 255, 0, 255]);
  });

  it('leaves the corners transparent in PNG, white in JPEG', async () => {
    const png = await rgba((await post({ angle: '-45' }, await halves())).rawPayload);
    expect(png.at(0, 0)[3]).toBe(0);
    const jpeg = await sharp(await halves())
      .jpeg()
      .toBuffer();
    const res = await post({ angle: '-45' }, jpeg, 'in.jpg');
    expect(res.headers['content-type']).toBe('image/jpeg');
    const [r, g, b] = (await rgba(res.rawPayload)).at(0, 0);
    expect(Math.min(r!, g!, b!)).toBeGreaterThan(245);
  });

  it.each([10, 30, 45, -60, 135])(
    'crops a %s° turn to the largest upright rectangle: no corner left',
    async (angle) => {
      const res = await post({ angle: String(angle), corners: 'crop' }, await halves());
      expect(res.statusCode, res.body).toBe(200);
      const out = await rgba(res.rawPayload);
      const rect = largestUprightRect(200, 100, angle);
      expect(Math.abs(out.width - rect.width)).toBeLessThanOrEqual(4);
      expect(Math.abs(out.height - rect.height)).toBeLessThanOrEqual(4);
      // Within the 1 px margin each side the server keeps: every pixel is the image's: opaque (the uncovered corners would be transparent).
      let least = 255;
      for (let y = 0; y < out.height; y += 1)
        for (let x = 0; x < out.width; x += 1) least = Math.min(least, out.at(x, y)[3]!);
      expect(least).toBeGreaterThan(200);
    },
  );

  it('mirrors before the turn', async () => {
    const mirrored = await rgba(
      (await post({ angle: '0', flipHorizontal: 'true' }, await halves())).rawPayload,
    );
    expect(mirrored.at(0, 50)).toEqual([0, 0, 255, 255]);
    // Mirrored then turned 90° clockwise: the blue half (now left) ends on top.
    const turned = await rgba(
      (await post({ angle: '90', flipHorizontal: 'true' }, await halves())).rawPayload,
    );
    expect([turned.width, turned.height]).toEqual([100, 200]);
    expect(turned.at(50, 0)).toEqual([0, 0, 255, 255]);
    const flipped = await rgba(
      (await post({ angle: '0', flipVertical: 'true' }, await halves())).rawPayload,
    );
    expect(flipped.at(0, 0)).toEqual([255, 0, 0, 255]);
  });

  it('keeps an opaque image opaque on a quarter turn', async () => {
    const opaque = await sharp(await halves())
      .removeAlpha()
      .png()
      .toBuffer();
    const res = await post({ angle: '-90' }, opaque);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ channels: 3, width: 100 });
  });

  it('applies the EXIF orientation first', async () => {
    // 40 × 20 stored, orientation 6: shown 20 × 40; turned 90° more, 40 × 20.
    const res = await post({ angle: '90' }, await fixtures.rotatedJpeg(), 'in.jpg');
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 40, height: 20 });
  });

  it.each([
    [{ angle: 'x' }, 'angle'],
    [{ angle: '90', background: 'red' }, 'background'],
    [{ angle: '90', corners: 'stretch' }, 'corners'],
  ])('refuses %o', async (fields, name) => {
    const res = await post(fields, await halves());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect(res.body).toContain(name);
  });
});
