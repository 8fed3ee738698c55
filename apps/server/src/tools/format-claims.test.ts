import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fixtures from '../test/image-fixtures.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Every format the server claims, read or written for real. */
describe('format claims', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const convert = (format: string, content: Buffer, filename: string) =>
    postForm(t.app, '/api/convert', { token, fields: { format }, file: { filename, content } });

  /** A logo-like PNG: a red disc with a blue bar on white. */
  const logo = () =>
    sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#fff"/>' +
          '<circle cx="40" cy="40" r="30" fill="#d00"/><rect x="80" y="10" width="20" height="60" fill="#00c"/></svg>',
      ),
    )
      .png()
      .toBuffer();

  it('reads PPM, PGM and PBM (binary and plain)', async () => {
    const rgb = Buffer.concat([Buffer.from('P6\n2 1\n255\n'), Buffer.from([255, 0, 0, 0, 0, 255])]);
    const gray = Buffer.from('P2\n2 2\n255\n0 255\n128 64\n');
    const bits = Buffer.from('P1\n4 2\n1 0 1 0\n0 1 0 1\n');
    for (const [bytes, name, size] of [
      [rgb, 'scan.ppm', [2, 1]],
      [gray, 'scan.pgm', [2, 2]],
      [bits, 'scan.pbm', [4, 2]],
    ] as const) {
      const res = await convert('png', bytes, name);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="scan.png"');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual(size);
    }
    const red = await sharp((await convert('png', rgb, 'a.ppm')).rawPayload)
      .raw()
      .toBuffer();
    expect([...red.subarray(0, 3)]).toEqual([255, 0, 0]);
  });

  it('writes CUR as a real cursor: type 2, a hotspot, readable back', async () => {
    const res = await convert('cur', await logo(), 'pointer.png');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="pointer.cur"');
    const cur = res.rawPayload;
    expect(cur.readUInt16LE(0)).toBe(0);
    expect(cur.readUInt16LE(2)).toBe(2); // Cursor, not icon (1).
    expect(cur.readUInt16LE(4)).toBeGreaterThanOrEqual(1);
    expect([cur.readUInt16LE(6 + 4), cur.readUInt16LE(6 + 6)]).toEqual([0, 0]); // Hotspot.
    const back = await convert('png', cur, 'pointer.cur');
    expect(back.statusCode, back.body).toBe(200);
    expect((await sharp(back.rawPayload).metadata()).width).toBe(120);
  });

  it('writes SVG as real traced paths, not a wrapped raster', async () => {
    const res = await convert('svg', await logo(), 'logo.png');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-disposition']).toBe('attachment; filename="logo.svg"');
    const svg = res.rawPayload.toString();
    expect(svg).toMatch(/<svg[^>]*viewBox="0 0 120 80"/);
    expect((svg.match(/<path /g) ?? []).length).toBeGreaterThanOrEqual(1);
    expect(svg).toMatch(/ d="M[\d .]+C/);
    expect(svg).not.toContain('<image');
    // It draws the logo: the traced disc's centre is dark, the white corner stays light.
    const { data, info } = await sharp(res.rawPayload)
      .flatten({ background: '#fff' })
      .greyscale()
      .raw()
      .toBuffer({
        resolveWithObject: true,
      });
    expect(data[40 * info.width + 40]!).toBeLessThan(200);
    expect(data[2 * info.width + 2]!).toBeGreaterThan(200);
  });

  describe.skipIf(!fixtures.hasLibheif)('HEIC through libheif', () => {
    it('HEIC → JPEG, and an editor turns a HEIC photo into a JPEG named after it', async () => {
      const heic = await fixtures.heicPhoto();
      const res = await convert('jpg', heic, 'IMG_0001.HEIC');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="IMG_0001.jpg"');
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({
        format: 'jpeg',
        width: 640,
        height: 480,
      });
      const rotated = await postForm(t.app, '/api/rotate', {
        token,
        fields: { angle: '90' },
        file: { filename: 'IMG_0001.HEIC', content: heic },
      });
      expect(rotated.statusCode, rotated.body).toBe(200);
      expect(rotated.headers['content-disposition']).toBe(
        'attachment; filename="IMG_0001-rotated.jpg"',
      );
      expect(await sharp(rotated.rawPayload).metadata()).toMatchObject({ width: 480, height: 640 });
    });

    it('JPEG → HEIC that libheif decodes back at the same size', async () => {
      const photo = await fixtures.photoJpeg(320, 240);
      const res = await convert('heic', photo, 'IMG_1054.jpg');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/heic');
      expect(res.headers['content-disposition']).toBe('attachment; filename="IMG_1054.heic"');
      expect(res.rawPayload.toString('latin1', 4, 12)).toBe('ftypheic');
      const dir = mkdtempSync(join(tmpdir(), 'refract-heic-test-'));
      try {
        writeFileSync(join(dir, 'a.heic'), res.rawPayload);
        expect(execFileSync('heif-info', [join(dir, 'a.heic')]).toString()).toContain(
          'image: 320x240',
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    // libvips' own sRGB profile, and the HP/Microsoft one most cameras and editors embed, which
    // libpng refuses to write into a PNG.
    it.each(['srgb', 'hp-srgb'] as const)(
      'reads a HEIC with the %s profile and keeps it',
      async (name) => {
        const heic = await fixtures.heicPhoto(320, 240, name);
        const srgb =
          name === 'hp-srgb'
            ? fixtures.hpSrgbProfile()
            : (
                await sharp(
                  await sharp(await fixtures.photoJpeg(8, 8))
                    .withIccProfile('srgb')
                    .png()
                    .toBuffer(),
                ).metadata()
              ).icc!;
        for (const format of ['png', 'jpg', 'webp']) {
          const res = await convert(format, heic, 'IMG_0002.HEIC');
          expect(res.statusCode, `${format}: ${res.body}`).toBe(200);
          expect((await sharp(res.rawPayload).metadata()).icc, format).toEqual(srgb);
        }
        for (const [path, fields] of [
          ['/api/rotate', { angle: '90' }],
          ['/api/compress', {}],
          ['/api/resize', { width: '100' }],
        ] as const) {
          const res = await postForm(t.app, path, {
            token,
            fields,
            file: { filename: 'IMG_0002.HEIC', content: heic },
          });
          expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
          expect((await sharp(res.rawPayload).metadata()).icc, path).toEqual(srgb);
        }
      },
    );

    it('refuses a damaged HEIC with invalid_image', async () => {
      const heic = await fixtures.heicPhoto(64, 48);
      const res = await convert('png', heic.subarray(0, Math.floor(heic.length / 2)), 'x.heic');
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('invalid_image');
    });
  });

  it('a Display P3 photo keeps its P3 profile through the editors and Convert', async () => {
    const p3 = await sharp(await fixtures.photoJpeg(200, 150))
      .withIccProfile('p3')
      .jpeg()
      .toBuffer();
    const profile = (await sharp(p3).metadata()).icc;
    const rotated = await postForm(t.app, '/api/rotate', {
      token,
      fields: { angle: '90' },
      file: { filename: 'p3.jpg', content: p3 },
    });
    expect((await sharp(rotated.rawPayload).metadata()).icc).toEqual(profile);
    const png = await convert('png', p3, 'p3.jpg');
    expect((await sharp(png.rawPayload).metadata()).icc).toEqual(profile);
  });

  it('GET /api/formats says what really works', async () => {
    const formats = (await t.app.inject({ url: '/api/formats' })).json().formats as {
      format: string;
      read: boolean;
      write: boolean;
    }[];
    const of = (name: string) => formats.find((f) => f.format === name);
    expect(of('svg')).toMatchObject({ write: true });
    expect(of('cur')).toMatchObject({ read: true, write: true });
    for (const netpbm of ['ppm', 'pgm', 'pbm']) expect(of(netpbm)).toMatchObject({ read: true });
    for (const heif of ['heic', 'heif'])
      expect(of(heif)).toMatchObject({ read: fixtures.hasLibheif, write: fixtures.hasLibheif });
  });
});
