import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../test/accounts.js';
import * as fixtures from '../test/image-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { rgba, type Pixels } from '../test/pixels.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Four people in front of a window and a wall: a photo that ships with face-api (its demo). */
const photo = readFileSync(
  join(
    dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
    'demo',
    'sample6.jpg',
  ),
);
/** The photo at 960×769, a quarter of its pixels: the tests run on a busy 2-core machine. */
const people = await sharp(photo).resize(960).jpeg().toBuffer();

/** A photo of a lighthouse and the sea, nobody in it (bench/fixtures/upscale/README.md). */
const LIGHTHOUSE = await sharp(
  fileURLToPath(new URL('../../../../bench/fixtures/upscale/01-lighthouse.jpg', import.meta.url)),
)
  .resize(800)
  .jpeg()
  .toBuffer();

/** Alpha at a point given as fractions of the width and height. */
const alphaAt = (out: Pixels, fx: number, fy: number) =>
  out.at(Math.round(fx * (out.width - 1)), Math.round(fy * (out.height - 1)))[3];

/** Where the sample's people and background are, as fractions of its width and height. */
const PERSON = [
  [0.2, 0.4], // the first person's face
  [0.6, 0.65], // the third person's striped dress
];
const BACKGROUND = [
  [0.02, 0.05], // the window at the top left
  [0.97, 0.1], // the wall at the top right
];

describe('remove background', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (fields: Record<string, string>, content?: Buffer, filename = 'party.jpg') =>
    postForm(t.app, '/api/remove-background', {
      token,
      fields,
      file: content && { filename, content },
    });
  const stats = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })).json()
      .imagesProcessed as number;
  const tmpIsEmpty = () => leftIn(t.database.options.dataDir, 'tmp').length === 0;

  it('cuts the people out: a transparent PNG at full size, charged once', async () => {
    const before = await stats();
    const res = await post({}, people);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toContain('party-no-background.png');
    const out = await rgba(res.rawPayload);
    expect([out.width, out.height]).toEqual([960, 769]);
    for (const [fx, fy] of PERSON)
      expect(alphaAt(out, fx!, fy!), `${fx},${fy}`).toBeGreaterThan(230);
    for (const [fx, fy] of BACKGROUND)
      expect(alphaAt(out, fx!, fy!), `${fx},${fy}`).toBeLessThan(25);
    expect(await stats()).toBe(before + 1);
  });

  it('applies the mask at full resolution with feathered edges, not in 256 blocks', async () => {
    // 3000 px wide: each of the model's 256 mask cells covers about 12 pixels.
    const big = await sharp(photo).resize(3000).jpeg().toBuffer();
    const res = await post({}, big);
    expect(res.statusCode, res.body).toBe(200);
    const { data, info } = await sharp(res.rawPayload)
      .extractChannel(3)
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(3000);
    let steepest = 0;
    let partial = 0;
    for (let y = 0; y < info.height; y += 5) {
      for (let x = 1; x < info.width; x += 1) {
        const a = data[y * info.width + x]!;
        steepest = Math.max(steepest, Math.abs(a - data[y * info.width + x - 1]!));
        if (a > 10 && a < 245) partial += 1;
      }
    }
    // A nearest-neighbour mask would jump from 0 to 255 between two pixels.
    expect(steepest).toBeLessThan(64);
    expect(partial).toBeGreaterThan(0);
  }, 120_000);

  it('draws the mask where a known person is: ground truth from a photographic cut-out', async () => {
    // A bench fixture whose mask is the cut-out's own alpha (bench/fixtures/remove-background).
    const fixture = fileURLToPath(
      new URL('../../../../bench/fixtures/remove-background/', import.meta.url),
    );
    const name = '06-firefighter-b-sheep';
    const res = await post({}, readFileSync(join(fixture, `${name}.jpg`)));
    expect(res.statusCode, res.body).toBe(200);
    const out = await rgba(res.rawPayload);
    const truth = await rgba(readFileSync(join(fixture, `${name}.mask.png`)));
    // IoU of the result's alpha (cut at 50 %) against the truth, the result read dx, dy further on.
    const iou = (dx: number, dy: number) => {
      let both = 0;
      let either = 0;
      for (let y = 8; y < out.height - 8; y += 1) {
        for (let x = 8; x < out.width - 8; x += 1) {
          const t = truth.at(x, y)[0]! >= 128;
          const f = out.at(x + dx, y + dy)[3]! >= 128;
          both += Number(t && f);
          either += Number(t || f);
        }
      }
      return both / either;
    };
    // A regression floor, well under this image's figure in the bench, not a quality claim.
    const inPlace = iou(0, 0);
    expect(inPlace).toBeGreaterThan(0.8);
    // A mask drawn off its place (a scaling or rounding slip) would fit better when shifted.
    for (const [dx, dy] of [
      [-6, 0],
      [6, 0],
      [0, -6],
      [0, 6],
    ] as const)
      expect(iou(dx, dy), `${dx},${dy}`).toBeLessThan(inPlace);
  });

  it('writes WebP with transparency', async () => {
    const res = await post({ format: 'webp' }, people);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['content-disposition']).toContain('party-no-background.webp');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', hasAlpha: true });
    const out = await rgba(res.rawPayload);
    expect(alphaAt(out, 0.02, 0.05)).toBeLessThan(25);
    // Lossless: every pixel that shows is the PNG's own (lossy WebP would change them).
    const png = await rgba((await post({}, people)).rawPayload);
    let differing = 0;
    for (let i = 0; i < png.data.length; i += 4)
      if (png.data[i + 3]! > 0 && !png.data.subarray(i, i + 4).equals(out.data.subarray(i, i + 4)))
        differing += 1;
    expect(differing).toBe(0);
  });

  it('writes PNG smaller than zlib level 6 (the former setting) for the same pixels', async () => {
    const res = await post({}, people);
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels };
    const former = await sharp(data, { raw }).png({ compressionLevel: 6 }).toBuffer();
    expect(res.rawPayload.length).toBeLessThan(former.length);
  });

  it('puts the subject on a chosen colour, fully opaque', async () => {
    const res = await post({ background: '#00ff00' }, people);
    expect(res.statusCode, res.body).toBe(200);
    const out = await rgba(res.rawPayload);
    for (const [fx, fy] of BACKGROUND) {
      const [r, g, b, a] = out.at(Math.round(fx! * out.width), Math.round(fy! * out.height));
      expect(a).toBe(255);
      expect(g).toBeGreaterThan(220);
      expect(r! + b!).toBeLessThan(60);
    }
    // The face keeps its own colour.
    const [r, g, b] = out.at(Math.round(0.2 * out.width), Math.round(0.4 * out.height));
    expect(g! - (r! + b!) / 2).toBeLessThan(30);
  });

  it('shares one model between requests running at once', async () => {
    const small = await sharp(people).resize(480).jpeg().toBuffer();
    const results = await Promise.all([1, 2, 3].map(() => post({}, small)));
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    // The same input gives the same cut-out, whichever request ran first.
    expect(results[1]!.rawPayload.equals(results[0]!.rawPayload)).toBe(true);
  });

  it.each([
    ['a blank image', () => fixtures.pngBytes(64, 48)],
    ['a lighthouse, with nobody in it', () => Promise.resolve(LIGHTHOUSE)],
  ])('refuses %s: 422 no_subject_found, nothing charged', async (_, image) => {
    const before = await stats();
    const res = await post({}, await image(), 'scene.jpg');
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().code).toBe('no_subject_found');
    expect(await stats()).toBe(before);
    await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
  });

  describe('bad requests: a clear code, nothing charged, no temp file left', () => {
    it.each([
      [{ format: 'jpeg' }, 'format'],
      [{ format: '' }, 'format'],
      [{ background: 'red' }, 'background'],
      [{ background: '#12345' }, 'background'],
      [{ background: '#00ff0080' }, 'background'],
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
      // 8000×6000 = 48 MP: under the other tools' bound, over this one's.
      const wide = await sharp({
        create: { width: 8000, height: 6000, channels: 3, background: '#808080' },
      })
        .png()
        .toBuffer();
      const cases: [Buffer | undefined, number, string][] = [
        [undefined, 400, 'no_file'],
        [Buffer.alloc(0), 400, 'no_file'],
        [fixtures.textAsPng(), 415, 'unsupported_media_type'],
        [await fixtures.truncatedJpeg(), 422, 'invalid_image'],
        [await fixtures.bombPng(), 422, 'image_too_large'],
        [wide, 422, 'image_too_large'],
        [Buffer.alloc(10 * 1024 * 1024 + 10, 1), 413, 'file_too_large'],
      ];
      for (const [content, status, code] of cases) {
        const res = await post({}, content);
        expect(res.statusCode, `${code}: ${res.body}`).toBe(status);
        expect(res.json().code).toBe(code);
      }
      expect(await stats()).toBe(before);
      await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
    });
  });
});
