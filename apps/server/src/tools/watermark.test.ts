import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { WATERMARK_POSITIONS, watermarkFieldsSchema } from '@refract/contracts';
import { knownFields } from '../lib/unknown-fields.js';
import { imageSlotCounters } from '../media/image/slots.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../test/accounts.js';
import { batchEnded, unzip } from '../test/batches.js';
import * as fixtures from '../test/image-fixtures.js';
import { registerSubscriber } from '../test/plans.js';
import { leftIn, multipartFiles, type MultipartFile } from '../test/multipart.js';
import { changedBox, rgba, type Pixels } from '../test/pixels.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** The watermark's marks and placements: logo, anchors, tiles, size, colour. */
describe('watermark: logo, anchors, tiles, size, colour', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const grey = (width = 400, height = 300) =>
    sharp({ create: { width, height, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();

  function post(fields: Record<string, string>, image: Buffer, logo?: Buffer) {
    const files: MultipartFile[] = [{ filename: 'in.png', content: image }];
    if (logo) files.push({ field: 'logo', filename: 'logo.png', content: logo });
    const body = multipartFiles(fields, files);
    return t.app.inject({
      method: 'POST',
      url: '/api/watermark',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(token) },
    });
  }

  async function watermarked(fields: Record<string, string>, image: Buffer, logo?: Buffer) {
    const res = await post({ opacity: '1', ...fields }, image, logo);
    expect(res.statusCode, res.body).toBe(200);
    return { before: await rgba(image), after: await rgba(res.rawPayload) };
  }

  /** Changed pixels per quadrant (top-left, top-right, bottom-left, bottom-right) as shares. */
  function changedQuadrants(a: Pixels, b: Pixels) {
    const counts = [0, 0, 0, 0];
    for (let y = 0; y < a.height; y += 1) {
      for (let x = 0; x < a.width; x += 1) {
        const i = (y * a.width + x) * 4;
        if (a.data.compare(b.data, i, i + 4, i, i + 4) === 0) continue;
        counts[(y < a.height / 2 ? 0 : 2) + (x < a.width / 2 ? 0 : 1)]! += 1;
      }
    }
    return counts.map((count) => count / ((a.width * a.height) / 4));
  }

  it('tiles the mark over the whole image at an angle, and the gap spreads it', async () => {
    const input = await grey();
    const tiled = (gap: string) =>
      watermarked(
        { text: 'Refract', position: 'tiled', size: '0.2', rotation: '-30', gap },
        input,
      ).then(({ before, after }) => changedQuadrants(before, after));
    const close = await tiled('0.3');
    for (const share of close) {
      expect(share).toBeGreaterThan(0.04);
      expect(share).toBeLessThan(0.7);
    }
    const apart = await tiled('2');
    const total = (shares: number[]) => shares.reduce((sum, share) => sum + share, 0);
    expect(total(apart)).toBeLessThan(total(close) * 0.6);
    // One mark, by contrast, stays in the middle.
    const single = await watermarked({ text: 'Refract', size: '0.2' }, input);
    expect(total(changedQuadrants(single.before, single.after))).toBeLessThan(total(close) / 3);
  });

  it('keeps a tiny tiled mark on a large image to a bounded number of tiles, in a few pipelines', async () => {
    const input = await grey(3000, 3000);
    const before = imageSlotCounters().started;
    const res = await post(
      { text: 'x', position: 'tiled', size: '0.02', gap: '0', opacity: '1' },
      input,
    );
    expect(res.statusCode, res.body).toBe(200);
    // One composite of every tile, not a pipeline per tile (2500 would fit at this size).
    expect(imageSlotCounters().started - before).toBeLessThan(20);
  });

  it.each([
    ['bottom-right', (box: Box) => [400 - box.right, 300 - box.bottom]],
    ['top-left', (box: Box) => [box.left, box.top]],
  ] as const)('places the mark at %s with the margin', async (position, gaps) => {
    // 5% of the shorter side (300 px) is 15 px from each edge; the outline reaches a little past.
    const { before, after } = await watermarked(
      { text: 'Refract', position, margin: '0.05', size: '0.3' },
      await grey(),
    );
    const box = changedBox(before, after)!;
    for (const gap of gaps(box)) {
      expect(gap).toBeGreaterThan(5);
      expect(gap).toBeLessThan(28);
    }
    expect(box.right - box.left).toBeGreaterThan(100);
    expect(box.right - box.left).toBeLessThan(140);
  });

  it('draws a PNG logo with its transparency, at its share of the width', async () => {
    // 100×100: the left half opaque red, the right half transparent.
    const logo = await sharp({
      create: { width: 100, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: { create: { width: 50, height: 100, channels: 4, background: '#ff0000ff' } },
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const { before, after } = await watermarked(
      { mark: 'logo', size: '0.5', position: 'center' },
      await grey(),
      logo,
    );
    // 200 px wide, centred: x 100 to 300, y 50 to 250; only its left half has ink.
    expect(after.at(150, 150)).toEqual([255, 0, 0, 255]);
    expect(after.at(250, 150)).toEqual(before.at(250, 150));
    const box = changedBox(before, after)!;
    expect([box.left, box.top, box.bottom]).toEqual([100, 50, 249]);
    // The edge between red and transparent is smoothed by the scaling: a pixel at most.
    expect(box.right).toBeGreaterThanOrEqual(199);
    expect(box.right).toBeLessThanOrEqual(200);
    const faded = await watermarked(
      { mark: 'logo', size: '0.5', position: 'center', opacity: '0.5' },
      await grey(),
      logo,
    );
    const [r, g] = faded.after.at(150, 150);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(80);
  });

  it('sizes the mark as a share of each image width, at two image sizes', async () => {
    for (const [width, height] of [
      [400, 300],
      [1200, 900],
    ] as const) {
      const { before, after } = await watermarked(
        { text: 'Refract', size: '0.5' },
        await grey(width, height),
      );
      const box = changedBox(before, after)!;
      // The text is half the width; its outline adds a few per cent.
      expect((box.right - box.left) / width).toBeGreaterThan(0.45);
      expect((box.right - box.left) / width).toBeLessThan(0.58);
    }
    const logo = await fixtures.pngBytes();
    for (const width of [200, 800]) {
      const { before, after } = await watermarked(
        { mark: 'logo', size: '0.25' },
        await sharp({ create: { width, height: width, channels: 3, background: '#123456' } })
          .png()
          .toBuffer(),
        logo,
      );
      const box = changedBox(before, after)!;
      expect(box.right - box.left + 1).toBeGreaterThanOrEqual(width / 4 - 1);
      expect(box.right - box.left + 1).toBeLessThanOrEqual(width / 4);
    }
  });

  it('draws the text in the asked colour and face', async () => {
    const reds = (pixels: Pixels) => {
      let count = 0;
      for (let i = 0; i < pixels.data.length; i += 4)
        if (pixels.data[i]! > 200 && pixels.data[i + 1]! < 60 && pixels.data[i + 2]! < 60)
          count += 1;
      return count;
    };
    const white = await watermarked({ text: 'Refract', size: '0.6' }, await grey());
    expect(reds(white.after)).toBe(0);
    const red = await watermarked({ text: 'Refract', size: '0.6', color: '#ff0000' }, await grey());
    expect(reds(red.after)).toBeGreaterThan(500);
    // Anton is condensed: at the same width its letters are taller.
    const sans = changedBox(white.before, white.after)!;
    const anton = await watermarked(
      { text: 'Refract', size: '0.6', font: 'condensed' },
      await grey(),
    );
    const condensed = changedBox(anton.before, anton.after)!;
    expect(condensed.bottom - condensed.top).toBeGreaterThan((sans.bottom - sans.top) * 1.2);
  });

  it('puts one logo on every file of a server batch, sized to each', async () => {
    const logo = await sharp({
      create: { width: 40, height: 40, channels: 4, background: '#ff0000ff' },
    })
      .png()
      .toBuffer();
    const images = [await grey(200, 100), await grey(600, 300)];
    const body = multipartFiles({ mark: 'logo', size: '0.25', opacity: '1', position: 'center' }, [
      { field: 'logo', filename: 'logo.png', content: logo },
      ...images.map((content, index) => ({ field: 'file', filename: `${index}.png`, content })),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/batch/watermark?files=2',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(token) },
    });
    expect(res.statusCode, res.body).toBe(202);
    const batch = await batchEnded(t.app, token, res.json().batchId);
    expect(batch.counts).toMatchObject({ done: 2, failed: 0 });
    const zip = await t.app.inject({
      url: `/api/batches/${batch.id}/zip`,
      headers: bearer(token),
    });
    const results = [...(await unzip(zip.rawPayload)).values()];
    for (const [index, result] of results.entries()) {
      const box = changedBox(await rgba(images[index]!), await rgba(result))!;
      expect(box.right - box.left + 1).toBe((index === 0 ? 200 : 600) / 4);
    }
  });

  it("lists every field in the README's /watermark row", () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    const row = readme.split('\n').find((line) => line.startsWith('| /watermark |'))!;
    const fields = [...knownFields(watermarkFieldsSchema)!, 'image', 'logo'];
    for (const field of fields) expect(row, field).toContain(`\`${field}\``);
    for (const position of WATERMARK_POSITIONS) expect(row).toContain(position);
  });

  describe('refused logos cost nothing', () => {
    const stats = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })).json()
        .imagesProcessed as number;

    it.each([
      ['text', () => Promise.resolve(fixtures.textAsPng()), 422, 'invalid_logo'],
      ['a truncated JPEG', () => fixtures.truncatedJpeg(), 422, 'invalid_logo'],
      ['a GIF', () => gif(), 422, 'invalid_logo'],
      ['6 MB', () => Promise.resolve(Buffer.alloc(6 * 1024 * 1024, 1)), 413, 'logo_too_large'],
      ['17 MP', () => bigPng(), 413, 'logo_too_large'],
      ['none', () => Promise.resolve(undefined), 400, 'no_file'],
    ])('a logo of %s is refused', async (_name, logo, status, code) => {
      const before = await stats();
      const res = await post({ mark: 'logo' }, await grey(), await logo());
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(code);
      expect(res.json().error.length).toBeGreaterThan(10);
      expect(await stats()).toBe(before);
      await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
    });
  });
});

type Box = { left: number; top: number; right: number; bottom: number };

const gif = () =>
  sharp({ create: { width: 10, height: 10, channels: 3, background: '#ff0000' } })
    .gif()
    .toBuffer();

/** 17 MP of one colour: a few KB of PNG, past the logo's pixel limit. */
const bigPng = () =>
  sharp({ create: { width: 4250, height: 4000, channels: 3, background: '#ff0000' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
