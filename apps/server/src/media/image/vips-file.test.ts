import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { writeVipsRgb } from './vips-file.js';

describe('writeVipsRgb', () => {
  const dir = mkdtempSync(join(tmpdir(), 'refract-vips-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes bands of rows where they belong, in any order, and sharp reads the picture back', async () => {
    const [width, height] = [37, 23];
    const pixels = Buffer.alloc(width * height * 3);
    for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 7) % 251;
    const path = join(dir, 'picture.v');
    const rows = (from: number, to: number) => pixels.subarray(from * width * 3, to * width * 3);
    await writeVipsRgb(path, width, height, async (write) => {
      await write(rows(10, 23), 10);
      await write(rows(0, 10), 0);
    });

    const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width, height, channels: 3 });
    expect(data.equals(pixels)).toBe(true);
    expect((await sharp(path).metadata()).space).toBe('srgb');
  });
});
