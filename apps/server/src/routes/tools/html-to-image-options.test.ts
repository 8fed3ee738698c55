import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { hasChromium } from '../../test/chromium-processes.js';
import { registerSubscriber } from '../../test/plans.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** Device scale, full page, the three formats, colour emoji and the pixel limit. */
describe.skipIf(!hasChromium())('POST /api/html-to-image options', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const render = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/html-to-image', payload, headers: bearer(token) });
  const stats = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })).json()
      .imagesProcessed as number;

  it.each([
    [1, 'png', 'png'],
    [2, 'jpeg', 'jpeg'],
    [3, 'webp', 'webp'],
  ] as const)('renders at %i× as %s: width × scale pixels', async (scale, format, sharpFormat) => {
    const html = '<body style="margin:0;background:#336699"><p>Hello</p></body>';
    const res = await render({ html, width: 200, height: 100, fullPage: false, scale, format });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(`image/${format}`);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe(sharpFormat);
    expect([meta.width, meta.height]).toEqual([200 * scale, 100 * scale]);
  });

  it('makes a full page of a long page taller than the viewport', async () => {
    const html = '<body style="margin:0"><div style="height:3000px;background:#0a0"></div></body>';
    const res = await render({ html, width: 300, height: 600, fullPage: true });
    expect(res.statusCode, res.body).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.height).toBeGreaterThanOrEqual(3000);
  });

  it('draws emoji in colour', async () => {
    const html = '<body style="margin:0;background:#fff;font-size:80px">😀🍎</body>';
    const res = await render({ html, width: 300, height: 120, fullPage: false });
    expect(res.statusCode, res.body).toBe(200);
    const { data, info } = await sharp(res.rawPayload)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let saturated = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 120) saturated += 1;
    }
    // A black-and-white outline font would give none.
    expect(saturated).toBeGreaterThan(500);
  });

  it('refuses an image over the pixel limit with 422 image_too_large, charging nothing', async () => {
    const before = await stats();
    const res = await render({ html: '<p>x</p>', width: 4000, height: 8000, scale: 2 });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('image_too_large');
    expect(await stats()).toBe(before);
  });
});
