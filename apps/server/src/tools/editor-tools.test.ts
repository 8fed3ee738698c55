import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BLUR_STYLES,
  blurFaceFieldsSchema,
  blurSigma,
  memeFieldsSchema,
  pixelBlockSize,
} from '@refract/contracts';
import { groupPhoto } from '../../../../bench/fixtures/faces/set.mjs';
import { bearer, registerUser } from '../test/accounts.js';
import { registerSubscriber } from '../test/plans.js';
import * as fixtures from '../test/image-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { changedBox, noisePng, rgba, type Pixels } from '../test/pixels.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** A photo of people that ships with the face model's package (the detect-faces tests use it). */
const samplePhoto = readFileSync(
  join(
    dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
    'demo',
    'sample6.jpg',
  ),
);

describe('image editors: crop, watermark, meme, face blur', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (path: string, fields: Record<string, string>, content?: Buffer, as = token) =>
    postForm(t.app, path, { token: as, fields, file: content && { filename: 'in.png', content } });

  const tmpIsEmpty = () => leftIn(t.database.options.dataDir, 'tmp').length === 0;

  /** Left half red, right half blue. */
  const halves = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
      .composite([
        {
          input: {
            create: { width: width / 2, height, channels: 3, background: '#0000ff' },
          },
          left: width / 2,
          top: 0,
        },
      ])
      .png()
      .toBuffer();

  describe('crop', () => {
    it('cuts the requested rectangle in source pixels', async () => {
      const res = await post(
        '/api/crop',
        { x: '110', y: '10', width: '50', height: '40' },
        await halves(200, 100),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toContain('in-cropped.png');
      const out = await rgba(res.rawPayload);
      expect([out.width, out.height]).toEqual([50, 40]);
      expect(out.at(0, 0)).toEqual([0, 0, 255, 255]);
      expect(out.at(49, 39)).toEqual([0, 0, 255, 255]);
    });

    it('clamps a rectangle that reaches past the image', async () => {
      const res = await post(
        '/api/crop',
        { x: '80.4', y: '50', width: '500', height: '500' },
        await halves(200, 100),
      );
      const out = await rgba(res.rawPayload);
      expect([out.width, out.height]).toEqual([120, 50]);
      expect(out.at(0, 0)).toEqual([255, 0, 0, 255]);
    });

    /** 200 × 100 in four quarters: red, blue above; green, white below. */
    const quarters = () => {
      const quarter = (background: string, left: number, top: number) => ({
        input: { create: { width: 100, height: 50, channels: 3 as const, background } },
        left,
        top,
      });
      return sharp({ create: { width: 200, height: 100, channels: 3, background: '#000' } })
        .composite([
          quarter('#ff0000', 0, 0),
          quarter('#0000ff', 100, 0),
          quarter('#00ff00', 0, 50),
          quarter('#ffffff', 100, 50),
        ])
        .png()
        .toBuffer();
    };
    const RED = [255, 0, 0, 255];
    const BLUE = [0, 0, 255, 255];
    const WHITE = [255, 255, 255, 255];

    it.each([
      // Turned clockwise, the top right quarter (50 × 100 of 100 × 200) was the top left.
      ['turned 90°', { turn: '90', x: '50', y: '0', width: '50', height: '100' }, [50, 100], RED],
      [
        'turned 180°',
        { turn: '180', x: '0', y: '0', width: '100', height: '50' },
        [100, 50],
        WHITE,
      ],
      [
        'mirrored',
        { flipHorizontal: 'true', x: '0', y: '0', width: '100', height: '50' },
        [100, 50],
        BLUE,
      ],
      [
        'flipped',
        { flipVertical: 'true', x: '100', y: '0', width: '100', height: '50' },
        [100, 50],
        WHITE,
      ],
      // Mirrored first, then turned, as the editor shows it.
      [
        'mirrored and turned 90°',
        { flipHorizontal: 'true', turn: '90', x: '50', y: '0', width: '50', height: '100' },
        [50, 100],
        BLUE,
      ],
    ])('cuts the rectangle of the image %s', async (_, fields, size, colour) => {
      const res = await post('/api/crop', fields, await quarters());
      expect(res.statusCode, res.body).toBe(200);
      const out = await rgba(res.rawPayload);
      expect([out.width, out.height]).toEqual(size);
      expect(out.at(0, 0)).toEqual(colour);
      expect(out.at(size[0]! - 1, size[1]! - 1)).toEqual(colour);
    });

    it('bounds the rectangle by the turned image', async () => {
      // 200 × 100 turned is 100 × 200: y = 150 leaves 50 rows, x = 0 all 100 columns.
      const res = await post(
        '/api/crop',
        { turn: '270', x: '0', y: '150', width: '500', height: '500' },
        await quarters(),
      );
      const out = await rgba(res.rawPayload);
      expect([out.width, out.height]).toEqual([100, 50]);
    });
  });

  describe('watermark', () => {
    const grey = () =>
      sharp({ create: { width: 400, height: 300, channels: 3, background: '#808080' } })
        .png()
        .toBuffer();

    it('draws the text around (x, y) and nowhere else', async () => {
      const input = await grey();
      const res = await post(
        '/api/watermark',
        { text: 'Refract', opacity: '1', x: '0.25', y: '0.25' },
        input,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toContain('in-watermarked.png');
      const box = changedBox(await rgba(input), await rgba(res.rawPayload))!;
      expect(box).not.toBeNull();
      expect(Math.abs((box.left + box.right) / 2 - 100)).toBeLessThan(10);
      expect(Math.abs((box.top + box.bottom) / 2 - 75)).toBeLessThan(10);
      expect(box.right).toBeLessThan(200);
      expect(box.bottom).toBeLessThan(150);
    });

    it('scales the font by source width over preview width, and rotates', async () => {
      const input = await grey();
      const width = async (fields: Record<string, string>) => {
        const res = await post(
          '/api/watermark',
          { text: 'Refract', opacity: '1', ...fields },
          input,
        );
        const box = changedBox(await rgba(input), await rgba(res.rawPayload))!;
        return { width: box.right - box.left, height: box.bottom - box.top };
      };
      const plain = await width({});
      const fromHalfSizePreview = await width({ previewWidth: '200' });
      expect(fromHalfSizePreview.width / plain.width).toBeGreaterThan(1.8);
      expect(fromHalfSizePreview.width / plain.width).toBeLessThan(2.2);
      const upright = await width({ rotation: '90' });
      expect(upright.height).toBeGreaterThan(upright.width);
    });

    it('changes nothing at opacity 0', async () => {
      const input = await grey();
      const res = await post('/api/watermark', { text: 'Refract', opacity: '0' }, input);
      expect(changedBox(await rgba(input), await rgba(res.rawPayload))).toBeNull();
    });

    it('draws hostile text literally: markup in it is not markup', async () => {
      const input = await grey();
      const res = await post(
        '/api/watermark',
        { text: '<span foreground="#ff0000" size="99999">x</span> & <b', opacity: '1' },
        input,
      );
      expect(res.statusCode, res.body).toBe(200);
      const out = await rgba(res.rawPayload);
      let red = 0;
      for (let i = 0; i < out.data.length; i += 4) {
        if (out.data[i]! > 200 && out.data[i + 1]! < 80 && out.data[i + 2]! < 80) red += 1;
      }
      expect(red).toBe(0);
      expect(changedBox(await rgba(input), out)).not.toBeNull();
    });
  });

  describe('meme', () => {
    it('adds two bands outside that hold the caption, in the chosen colour, with text in the other', async () => {
      const res = await post(
        '/api/meme',
        { topText: 'TOP TEXT', bottomText: 'BOTTOM', position: 'outside', background: 'white' },
        await noisePng(300, 200),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toContain('in-meme.png');
      const out = await rgba(res.rawPayload);
      // A 20 px font (10 % of 200) on 24 px lines, with 4 px margins: 32 px bands.
      expect([out.width, out.height]).toEqual([300, 264]);
      expect(out.at(2, 2)).toEqual([255, 255, 255, 255]);
      expect(out.at(2, 261)).toEqual([255, 255, 255, 255]);
      const dark = (top: number, bottom: number) => {
        let count = 0;
        for (let y = top; y < bottom; y += 1)
          for (let x = 0; x < out.width; x += 1) if (out.at(x, y)[0]! < 60) count += 1;
        return count;
      };
      expect(dark(0, 32)).toBeGreaterThan(100);
      expect(dark(232, 264)).toBeGreaterThan(100);
    });

    it('draws white text with a black outline inside, keeping the size', async () => {
      const input = await sharp({
        create: { width: 300, height: 200, channels: 3, background: '#3060a0' },
      })
        .png()
        .toBuffer();
      const res = await post('/api/meme', { topText: 'HELLO', position: 'inside' }, input);
      const out = await rgba(res.rawPayload);
      expect([out.width, out.height]).toEqual([300, 200]);
      const box = changedBox(await rgba(input), out)!;
      expect(box.top).toBeGreaterThanOrEqual(5);
      expect(box.bottom).toBeLessThan(70);
      const colours = new Set<string>();
      for (let y = box.top; y <= box.bottom; y += 1)
        for (let x = box.left; x <= box.right; x += 1) {
          const [r, g, b] = out.at(x, y);
          if (r! > 240 && g! > 240 && b! > 240) colours.add('white');
          if (r! < 15 && g! < 15 && b! < 15) colours.add('black');
        }
      expect(colours).toEqual(new Set(['white', 'black']));
    });

    it("README's /meme-generator row names every option the API takes", () => {
      const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
      const row = readme.split('\n').find((line) => line.startsWith('| /meme-generator |'))!;
      for (const field of Object.keys(memeFieldsSchema.shape))
        expect(row).toContain(`\`${field}\``);
    });

    const solid = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: '#3060a0' } })
        .png()
        .toBuffer();

    it.each([600, 1920, 4000])(
      'sizes a short caption by the image: the same share of a %i px tall image',
      async (height) => {
        const input = await solid(Math.round(height * 0.75), height);
        const res = await post('/api/meme', { topText: 'HELLO' }, input);
        expect(res.statusCode, res.body).toBe(200);
        const box = changedBox(await rgba(input), await rgba(res.rawPayload))!;
        // Anton's capitals are 0.86 of the 10 % font, plus the outline: about a tenth.
        const share = (box.bottom - box.top + 1) / height;
        expect(share).toBeGreaterThan(0.09);
        expect(share).toBeLessThan(0.11);
        expect(box.top / height).toBeLessThan(0.06);
      },
      30_000,
    );

    it('follows fontSize and draws no outline at outline 0', async () => {
      const input = await solid(600, 600);
      const res = await post('/api/meme', { topText: 'HI', fontSize: '20', outline: '0' }, input);
      expect(res.statusCode, res.body).toBe(200);
      const out = await rgba(res.rawPayload);
      const box = changedBox(await rgba(input), out)!;
      expect((box.bottom - box.top + 1) / 600).toBeCloseTo(0.86 * 0.2, 1);
      for (let y = box.top; y <= box.bottom; y += 1)
        for (let x = box.left; x <= box.right; x += 1) expect(out.at(x, y)[0]).toBeGreaterThan(40);
    });

    it('shrinks a long caption to three lines within the width', async () => {
      const input = await solid(600, 600);
      const topText =
        'WHEN YOU FINALLY FIX THE BUG AND THEN A NEW ONE APPEARS OUT OF NOWHERE AGAIN';
      const res = await post('/api/meme', { topText }, input);
      const box = changedBox(await rgba(input), await rgba(res.rawPayload))!;
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThan(600);
      // Three 1.2 em lines of a font at most 60 px.
      expect(box.bottom - box.top).toBeLessThan(3 * 72);
      expect(box.bottom - box.top).toBeGreaterThan(2 * 40);
    });

    it('draws an extra text box centred where it was placed', async () => {
      const input = await solid(400, 400);
      const boxes = [{ text: 'BOX', x: 0.25, y: 0.75, width: 0.4 }];
      const res = await post('/api/meme', { boxes: JSON.stringify(boxes) }, input);
      expect(res.statusCode, res.body).toBe(200);
      const box = changedBox(await rgba(input), await rgba(res.rawPayload))!;
      expect(Math.abs((box.left + box.right) / 2 - 100)).toBeLessThan(4);
      expect(Math.abs((box.top + box.bottom) / 2 - 300)).toBeLessThan(4);
      expect(box.bottom - box.top).toBeGreaterThan(30);
    });
  });

  describe('face blur', () => {
    it('blurs the areas and leaves every other pixel as it was', async () => {
      const input = await noisePng(200, 150);
      const areas = [{ x: 20, y: 30, width: 60, height: 50 }];
      const res = await post('/api/blur-face', { areas: JSON.stringify(areas) }, input);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toContain('in-blurred.png');
      const before = await rgba(input);
      const after = await rgba(res.rawPayload);
      expect(changedBox(before, after)).toEqual({ left: 20, top: 30, right: 79, bottom: 79 });
      // Noise of sigma 50 is flattened to near its mean: nothing of the original survives.
      let spread = 0;
      for (let y = 30; y < 80; y += 1)
        for (let x = 20; x < 80; x += 1) spread += Math.abs(after.at(x, y)[0]! - 128);
      expect(spread / (60 * 50)).toBeLessThan(12);
    });

    it('moves an area that pokes out back inside the image', async () => {
      const input = await noisePng(200, 150);
      const areas = [{ x: 180, y: 140, width: 40, height: 30 }];
      const res = await post('/api/blur-face', { areas: JSON.stringify(areas) }, input);
      expect(res.statusCode, res.body).toBe(200);
      expect(changedBox(await rgba(input), await rgba(res.rawPayload))).toEqual({
        left: 160,
        top: 120,
        right: 199,
        bottom: 149,
      });
    });
  });

  describe('face blur styles and detection', () => {
    const areas = JSON.stringify([{ x: 20, y: 30, width: 100, height: 60 }]);
    /** Every pixel of the box x 20–119, y 30–89, as [x, y, rgba]. */
    const inBox = (out: Pixels) =>
      Array.from({ length: 60 * 100 }, (_, i) => {
        const x = 20 + (i % 100);
        const y = 30 + Math.floor(i / 100);
        return [x, y, out.at(x, y).join()] as const;
      });

    it('pixelates in blocks of strength × 2 % of the longer side, from the box corner', async () => {
      const input = await noisePng(200, 150);
      // strength 4 of a 100 px side: blocks of 8 px (13 columns, the last 4 px wide; 8 rows).
      expect(pixelBlockSize({ width: 100, height: 60 }, 4)).toBe(8);
      const res = await post('/api/blur-face', { areas, style: 'pixelate', strength: '4' }, input);
      expect(res.statusCode, res.body).toBe(200);
      const out = await rgba(res.rawPayload);
      expect(changedBox(await rgba(input), out)).toEqual({
        left: 20,
        top: 30,
        right: 119,
        bottom: 89,
      });
      const blocks = new Map<string, Set<string>>();
      for (const [x, y, colour] of inBox(out)) {
        const key = `${Math.floor((x - 20) / 8)},${Math.floor((y - 30) / 8)}`;
        blocks.set(key, (blocks.get(key) ?? new Set()).add(colour));
      }
      expect(blocks.size).toBe(13 * 8);
      for (const colours of blocks.values()) expect(colours.size).toBe(1);
      // Neighbouring blocks differ (noise), so the blocks are no larger than 8 px either.
      expect(new Set([...blocks.values()].map((c) => [...c][0])).size).toBeGreaterThan(90);
    });

    it('covers the box with a solid colour, black by default', async () => {
      const input = await noisePng(200, 150);
      for (const [fields, expected] of [
        [{ style: 'box', color: '#12ab34' }, '18,171,52,255'],
        [{ style: 'box' }, '0,0,0,255'],
      ] as const) {
        const res = await post('/api/blur-face', { areas, ...fields }, input);
        expect(res.statusCode, res.body).toBe(200);
        const out = await rgba(res.rawPayload);
        expect(new Set(inBox(out).map(([, , colour]) => colour))).toEqual(new Set([expected]));
        expect(changedBox(await rgba(input), out)).toEqual({
          left: 20,
          top: 30,
          right: 119,
          bottom: 89,
        });
      }
    });

    it('blurs harder at a higher strength (sigma scales with it)', async () => {
      const input = await noisePng(200, 150);
      /**
       * Variance of the red channel's step from each pixel to its right neighbour inside the
       * box: the detail left of the noise (the box's own mean and slopes do not count).
       */
      const variance = async (strength: string) => {
        const res = await post('/api/blur-face', { areas, strength }, input);
        expect(res.statusCode, res.body).toBe(200);
        const out = await rgba(res.rawPayload);
        const steps = inBox(out)
          .filter(([x]) => x < 119)
          .map(([x, y]) => out.at(x + 1, y)[0]! - out.at(x, y)[0]!);
        return steps.reduce((sum, step) => sum + step ** 2, 0) / steps.length;
      };
      expect(blurSigma({ width: 100, height: 60 }, 1)).toBe(4);
      expect(blurSigma({ width: 100, height: 60 }, 10)).toBe(40);
      // Sigma 4, 8 and 20: each leaves less detail; past that 8-bit rounding is all there is.
      const [weak, mild, normal] = [await variance('1'), await variance('2'), await variance('5')];
      expect(weak).toBeGreaterThan(mild * 2);
      expect(mild).toBeGreaterThan(normal * 1.5);
    });

    it("README's /blur-face row names every field the API takes", () => {
      const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
      const row = readme.split('\n').find((line) => line.includes('`POST /api/blur-face`'))!;
      for (const field of Object.keys(blurFaceFieldsSchema.shape))
        expect(row, field).toContain(`\`${field}\``);
      for (const style of BLUR_STYLES) expect(row, style).toContain(style);
    });

    it('with detect=true finds the faces itself and hides each one', async () => {
      const { faces } = (
        await postForm(t.app, '/api/detect-faces', {
          token,
          file: { field: 'image', filename: 'photo.jpg', content: samplePhoto },
        })
      ).json() as { faces: { x: number; y: number; width: number; height: number }[] };
      expect(faces.length).toBeGreaterThanOrEqual(3);
      const res = await post('/api/blur-face', { detect: 'true', style: 'box' }, samplePhoto);
      expect(res.statusCode, res.body).toBe(200);
      const out = await rgba(res.rawPayload);
      // Each face's centre is the box's black, in the JPEG written back (so nearly black).
      for (const face of faces) {
        const [r, g, b] = out.at(
          Math.round(face.x + face.width / 2),
          Math.round(face.y + face.height / 2),
        );
        expect(Math.max(r!, g!, b!), JSON.stringify(face)).toBeLessThan(16);
      }
      // And an area sent with it is hidden too.
      const extra = JSON.stringify([{ x: 0, y: 0, width: 30, height: 30 }]);
      const both = await post(
        '/api/blur-face',
        { detect: 'true', style: 'box', color: '#ffffff', areas: extra },
        samplePhoto,
      );
      expect(Math.min(...(await rgba(both.rawPayload)).at(10, 10).slice(0, 3))).toBeGreaterThan(
        240,
      );
    });

    // 27 inferences of the model and a 12 MP encode: about 15 s at rest; a hang guard of 10 min.
    it(
      'with detect=true hides every face marked by hand in the face set’s 12 MP group photo',
      { timeout: 600_000 },
      async () => {
        const group = await groupPhoto();
        const res = await post('/api/blur-face', { detect: 'true', style: 'box' }, group.image);
        expect(res.statusCode, res.body).toBe(200);
        const out = await rgba(res.rawPayload);
        // The middle half of each face, at 25 points, is the box's black (nearly, in a JPEG).
        for (const face of group.faces)
          for (const across of [0.25, 0.375, 0.5, 0.625, 0.75])
            for (const down of [0.25, 0.375, 0.5, 0.625, 0.75]) {
              const x = Math.round(face.x + face.width * across);
              const y = Math.round(face.y + face.height * down);
              const [r, g, b] = out.at(x, y);
              expect(Math.max(r!, g!, b!), JSON.stringify({ face, x, y })).toBeLessThan(24);
            }
      },
    );
  });

  describe('bad requests: a clear code, nothing charged, no temp file left', () => {
    const oneArea = '[{"x":0,"y":0,"width":20,"height":20}]';
    const stats = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })).json()
        .imagesProcessed as number;

    it.each([
      ['/api/crop', { y: '0', width: '10', height: '10' }, 400, 'validation_failed', 'x'],
      [
        '/api/crop',
        { x: '0', y: '0', width: '10', height: '10', turn: '45' },
        400,
        'validation_failed',
        'turn',
      ],
      [
        '/api/crop',
        { x: 'left', y: '0', width: '10', height: '10' },
        400,
        'validation_failed',
        'x',
      ],
      ['/api/watermark', { text: '   ' }, 400, 'validation_failed', 'text'],
      ['/api/watermark', { text: 'a', opacity: '2' }, 400, 'validation_failed', 'opacity'],
      ['/api/watermark', { text: 'a', rotation: '270' }, 400, 'validation_failed', 'rotation'],
      ['/api/meme', { position: 'sideways' }, 400, 'validation_failed', 'position'],
      ['/api/meme', { topText: 'x'.repeat(201) }, 400, 'validation_failed', 'topText'],
      ['/api/meme', { fontSize: '30' }, 400, 'validation_failed', 'fontSize'],
      ['/api/meme', { outline: '-1' }, 400, 'validation_failed', 'outline'],
      ['/api/meme', { boxes: '[{text: 1' }, 400, 'validation_failed', 'boxes'],
      ['/api/meme', { boxes: '{}' }, 400, 'validation_failed', 'boxes'],
      [
        '/api/meme',
        { boxes: JSON.stringify(Array(11).fill({ text: 'a', x: 0.5, y: 0.5, width: 0.5 })) },
        400,
        'validation_failed',
        'boxes',
      ],
      [
        '/api/meme',
        { boxes: JSON.stringify([{ text: 'x'.repeat(201), x: 0.5, y: 0.5, width: 0.5 }]) },
        400,
        'validation_failed',
        'boxes.0.text',
      ],
      [
        '/api/meme',
        { boxes: JSON.stringify([{ text: 'a', x: 1.5, y: 0.5, width: 0.5 }]) },
        400,
        'validation_failed',
        'boxes.0.x',
      ],
      ['/api/blur-face', {}, 400, 'validation_failed', 'areas'],
      ['/api/blur-face', { detect: 'false' }, 400, 'validation_failed', 'areas'],
      ['/api/blur-face', { areas: '[{x: 1' }, 400, 'validation_failed', 'areas'],
      ['/api/blur-face', { areas: '[]' }, 400, 'validation_failed', 'areas'],
      ['/api/blur-face', { detect: 'yes' }, 400, 'validation_failed', 'detect'],
      ['/api/blur-face', { areas: oneArea, style: 'swirl' }, 400, 'validation_failed', 'style'],
      ['/api/blur-face', { areas: oneArea, strength: '0' }, 400, 'validation_failed', 'strength'],
      ['/api/blur-face', { areas: oneArea, strength: '11' }, 400, 'validation_failed', 'strength'],
      ['/api/blur-face', { areas: oneArea, strength: '2.5' }, 400, 'validation_failed', 'strength'],
      ['/api/blur-face', { areas: oneArea, strength: 'max' }, 400, 'validation_failed', 'strength'],
      ['/api/blur-face', { areas: oneArea, color: 'red' }, 400, 'validation_failed', 'color'],
      [
        '/api/blur-face',
        { areas: '[{"x":0,"y":0,"width":19,"height":40}]' },
        400,
        'validation_failed',
        'areas.0.width',
      ],
    ])('%s %j → %i %s naming %s', async (path, fields, status, code, field) => {
      const before = await stats();
      const res = await post(path, fields, await fixtures.pngBytes());
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().code).toBe(code);
      expect(res.json().error).toContain(`Invalid ${field}:`);
      expect(await stats()).toBe(before);
      await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
    });

    const validFields: Record<string, Record<string, string>> = {
      // The whole image, so that a damaged file is read to its end.
      '/api/crop': { x: '0', y: '0', width: '100000', height: '100000' },
      '/api/watermark': { text: 'hi' },
      '/api/meme': { topText: 'hi' },
      '/api/blur-face': { areas: '[{"x":0,"y":0,"width":20,"height":20}]' },
    };

    it('detect=true on an image with no face and no area: 422 no_faces_found, uncharged', async () => {
      const before = await stats();
      const blank = await sharp({
        create: { width: 640, height: 480, channels: 3, background: '#9a9a9a' },
      })
        .jpeg()
        .toBuffer();
      const res = await post('/api/blur-face', { detect: 'true' }, blank);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe('no_faces_found');
      expect(await stats()).toBe(before);
      await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
    });

    it.each(Object.keys(validFields))(
      '%s refuses broken files and oversize uploads',
      async (path) => {
        const fields = validFields[path]!;
        const before = await stats();
        const cases: [Buffer | undefined, number, string][] = [
          [undefined, 400, 'no_file'],
          [fixtures.textAsPng(), 415, 'unsupported_media_type'],
          [await fixtures.truncatedJpeg(), 422, 'invalid_image'],
          [Buffer.alloc(10 * 1024 * 1024 + 10, 1), 413, 'file_too_large'],
        ];
        for (const [content, status, code] of cases) {
          const res = await post(path, fields, content);
          expect(res.statusCode, `${code}: ${res.body}`).toBe(status);
          expect(res.json().code).toBe(code);
        }
        expect(await stats()).toBe(before);
        await vi.waitFor(() => expect(tmpIsEmpty()).toBe(true));
      },
    );

    it('charges each editor to its own service on success', async () => {
      const basic = await registerUser(t.app);
      for (const path of Object.keys(validFields)) {
        const res = await post(path, validFields[path]!, await fixtures.pngBytes(), basic.token);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers['x-quota-remaining']).toBe('2');
      }
      const usage = (
        await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(basic.token) })
      ).json().usage as { service: string; used: number }[];
      for (const service of [
        'modify-crop',
        'security-watermark',
        'create-meme',
        'security-blur-face',
      ])
        expect(usage.find((u) => u.service === service)?.used).toBe(1);
    });
  });
});
