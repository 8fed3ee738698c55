import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { MAIN_THREAD_CPU_LIMIT_MS, mainThreadCpuDuring } from './loop-watch.js';

/** Decoders other than libvips run off the event loop, inside the image slots, header first. */
describe('decoders outside libvips', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const post = (path: string, fields: Record<string, string>, content: Buffer, name = 'in.bin') =>
    postForm(t.app, path, { token, fields, file: { field: 'image', filename: name, content } });

  it('refuses an 820 KB RLE8 BMP of 9999×9999 at detect-faces, from its header', async () => {
    const res = await post('/api/detect-faces', {}, rle8Bmp(9999), 'bomb.bmp');
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().code).toBe('image_too_large');
  });

  it('decodes a 12 MP BMP through ImageMagick in its worker, leaving the event loop free', async () => {
    const { result: res, cpuMs } = await mainThreadCpuDuring(() =>
      post('/api/convert', { format: 'png' }, rle8Bmp(3464), 'scan.bmp'),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 3464, height: 3464 });
    expect(cpuMs).toBeLessThan(MAIN_THREAD_CPU_LIMIT_MS);
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

  /**
   * libheif decodes what the coded data holds, not what the `ispe` boxes (all heif-info reads)
   * declare: each case below is a small primary image and a second one that declares 64×64 and
   * decodes to more than 100 MP. heif-convert decodes every top-level image, so without a count
   * of the real sizes it spent that work, then answered with the primary.
   */
  describe.skipIf(!hasLibheif)('HEIC whose ispe boxes lie', () => {
    let small: HevcStream;
    let large: HevcStream;
    beforeAll(async () => {
      small = hevcStream(await heicOf([[256, 256]]));
      // 7200×7200 is 51.8 MP: two of them pass the 100 MP limit.
      large = hevcStream(await heicOf([[7200, 7200]]));
    }, 120_000);
    const SMALL = [256, 256] as const;
    const LIE = [64, 64] as const;

    const convert = (heic: Buffer) => post('/api/convert', { format: 'png' }, heic, 'lie.heic');

    it('refuses a HEIC whose two 7200×7200 streams each declare 64×64, before decoding them', async () => {
      const heic = heifFile([
        { stream: small, declared: SMALL },
        { stream: large, declared: LIE },
        { stream: large, declared: LIE },
      ]);
      const res = await convert(heic);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe('image_too_large');
    });

    it('counts every picture of a stream: a 7200×7200 picture twice in an image that declares 64×64', async () => {
      const heic = heifFile([
        { stream: small, declared: SMALL },
        { stream: large, declared: LIE, pictures: 2 },
      ]);
      const res = await convert(heic);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe('image_too_large');
    });

    it('refuses a grid whose data asks for a 12000×12000 canvas while it declares 64×64', async () => {
      const heic = heifFile([
        { stream: small, declared: SMALL },
        { grid: [3, 4, 3, 4], columns: 2, rows: 2, canvas: [12_000, 12_000], declared: LIE },
        { stream: small, declared: SMALL, hidden: true },
        { stream: small, declared: SMALL, hidden: true },
      ]);
      const res = await convert(heic);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().code).toBe('image_too_large');
    });

    it('still decodes an honest grid (as phones write them) and a HEIC with alpha', async () => {
      const grid = heifFile([
        { grid: [2, 3, 4, 5], columns: 2, rows: 2, canvas: [500, 400], declared: [500, 400] },
        ...Array.from({ length: 4 }, () => ({ stream: small, declared: SMALL, hidden: true })),
      ]);
      const res = await convert(grid);
      expect(res.statusCode, res.body).toBe(200);
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 500, height: 400 });

      const alpha = await convert(await heicWithAlpha(96, 64));
      expect(alpha.statusCode, alpha.body).toBe(200);
      expect(await sharp(alpha.rawPayload).metadata()).toMatchObject({
        width: 96,
        height: 64,
        hasAlpha: true,
      });
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
      // A hang guard: 75 frames of 1920² take seconds at rest and minutes on a loaded machine.
    }, 600_000);

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

/** The parameter sets (its hvcC box) and coded picture of a one-image HEIC from heif-enc. */
interface HevcStream {
  hvcC: Buffer;
  picture: Buffer;
}

function hevcStream(heic: Buffer): HevcStream {
  const at = heic.indexOf('hvcC', 0, 'latin1') - 4;
  const mdat = heic.lastIndexOf('mdat', undefined, 'latin1') - 4;
  // heif-enc writes one image's picture, alone, in the last box.
  return {
    hvcC: heic.subarray(at, at + heic.readUInt32BE(at)),
    picture: heic.subarray(mdat + 8, mdat + heic.readUInt32BE(mdat)),
  };
}

/** One image of a hand-made HEIF: a coded stream (its picture `pictures` times), or a grid. */
type HeifItem = { declared: readonly [number, number]; hidden?: boolean } & (
  | { stream: HevcStream; pictures?: number }
  | { grid: number[]; columns: number; rows: number; canvas: [number, number] }
);

const u8 = (n: number) => Buffer.from([n]);
const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);
const u32 = (n: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
};
const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
};
const fullBox = (type: string, version: number, flags: number, ...parts: Buffer[]) =>
  box(type, u8(version), u8(0), u8(0), u8(flags), ...parts);

/**
 * A HEIF file of `items` (item ids count from 1, in order; the first is the primary; a grid
 * names its tiles by id), with only the boxes
 * libheif reads: each item's `ispe` says what `declared` says, whatever its data holds.
 */
function heifFile(items: HeifItem[]): Buffer {
  const properties: Buffer[] = [];
  const associations: Buffer[] = [];
  const grids: Buffer[] = [];
  items.forEach((item, i) => {
    const own: number[] = [];
    if ('stream' in item) own.push(properties.push(item.stream.hvcC));
    own.push(properties.push(fullBox('ispe', 0, 0, u32(item.declared[0]), u32(item.declared[1]))));
    associations.push(u16(i + 1), u8(own.length), ...own.map((index) => u8(0x80 | index)));
  });
  const data = items.map((item) =>
    'stream' in item
      ? Buffer.concat(Array<Buffer>(item.pictures ?? 1).fill(item.stream.picture))
      : // A grid's own data: version, flags (32-bit sizes), rows and columns less one, the canvas.
        Buffer.concat([
          u8(0),
          u8(1),
          u8(item.rows - 1),
          u8(item.columns - 1),
          ...item.canvas.map(u32),
        ]),
  );
  items.forEach((item, i) => {
    if ('grid' in item)
      grids.push(box('dimg', u16(i + 1), u16(item.grid.length), ...item.grid.map(u16)));
  });
  const idat = Buffer.concat(data.filter((_, i) => 'grid' in items[i]!));
  const meta = (mdatAt: number) => {
    let inFile = mdatAt;
    let inIdat = 0;
    // Version 1: each item says where its data is, the file (0) or the idat box (1).
    const locations = items.map((item, i) => {
      const inBox = 'grid' in item;
      const offset = inBox ? inIdat : inFile;
      if (inBox) inIdat += data[i]!.length;
      else inFile += data[i]!.length;
      return Buffer.concat([
        u16(i + 1),
        u16(inBox ? 1 : 0),
        u16(0),
        u16(1),
        u32(offset),
        u32(data[i]!.length),
      ]);
    });
    const infe = (item: HeifItem, i: number) =>
      fullBox(
        'infe',
        2,
        item.hidden ? 1 : 0,
        u16(i + 1),
        u16(0),
        Buffer.from('grid' in item ? 'grid' : 'hvc1'),
        u8(0),
      );
    return fullBox(
      'meta',
      0,
      0,
      fullBox('hdlr', 0, 0, u32(0), Buffer.from('pict'), Buffer.alloc(12), u8(0)),
      fullBox('pitm', 0, 0, u16(1)),
      fullBox('iinf', 0, 0, u16(items.length), ...items.map(infe)),
      fullBox('iref', 0, 0, ...grids),
      box(
        'iprp',
        box('ipco', ...properties),
        fullBox('ipma', 0, 0, u32(items.length), ...associations),
      ),
      box('idat', idat),
      fullBox('iloc', 1, 0, u8(0x44), u8(0), u16(items.length), ...locations),
    );
  };
  const ftyp = box('ftyp', Buffer.from('heic'), u32(0), Buffer.from('mif1heic'));
  // The offsets' fields have a fixed size: the box's length does not depend on their values.
  const mdatAt = ftyp.length + meta(0).length + 8;
  const pictures = data.filter((_, i) => 'stream' in items[i]!);
  return Buffer.concat([ftyp, meta(mdatAt), box('mdat', ...pictures)]);
}

/** A HEIC of a half-transparent image: heif-enc writes its alpha as a second, auxiliary image. */
async function heicWithAlpha(width: number, height: number) {
  const dir = mkdtempSync(join(tmpdir(), 'refract-heic-'));
  try {
    const source = join(dir, 'alpha.png');
    await sharp({
      create: { width, height, channels: 4, background: { r: 9, g: 99, b: 199, alpha: 0.5 } },
    })
      .png()
      .toFile(source);
    execFileSync('heif-enc', [
      '-q',
      '50',
      '-p',
      'preset=ultrafast',
      source,
      '-o',
      join(dir, 'out.heic'),
    ]);
    return readFileSync(join(dir, 'out.heic'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
