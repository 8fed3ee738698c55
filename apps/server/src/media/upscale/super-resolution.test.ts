import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeSuperResolution,
  superResolve,
  TILE,
  type UpscaleFactor,
} from './super-resolution.js';

const PHOTO = new URL('../../../../../bench/fixtures/upscale/01-lighthouse.jpg', import.meta.url);

describe('super-resolution tiles', { timeout: 120_000 }, () => {
  afterAll(() => closeSuperResolution());

  it('stops between tiles when the request is aborted', async () => {
    const [width, height] = [TILE.onnx * 2 + 10, TILE.onnx + 5]; // 3 × 2 tiles
    const rgb = Buffer.alloc(width * height * 3, 120);
    const controller = new AbortController();
    const seen: number[] = [];
    const run = superResolve(rgb, width, height, 2, {
      signal: controller.signal,
      onTile: (done, total) => {
        seen.push(done);
        expect(total).toBe(6);
        controller.abort(new Error('client gone'));
      },
    });
    await expect(run).rejects.toThrow('client gone');
    expect(seen).toEqual([1]);
  });

  it('a flat image comes back flat at twice the size, with no seams between tiles', async () => {
    const [width, height] = [TILE.onnx + 20, 30];
    const out = await superResolve(Buffer.alloc(width * height * 3, 128), width, height, 2);
    expect(out.length).toBe(width * 2 * height * 2 * 3);
    const values = new Set(out);
    expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(6);
  });

  // The ONNX graph is written by our own converter from the TF.js layers model; the native
  // runtime must give what the WebAssembly one gives, pixel for pixel within rounding.
  it.each([2, 4] as UpscaleFactor[])(
    'the native runtime agrees with TF.js within 1/255 on a photo at ×%i',
    async (scale) => {
      const { data, info } = await sharp(readFileSync(PHOTO))
        .extract({ left: 50, top: 80, width: 150, height: 100 })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const [native, wasm] = [
        await superResolve(data, info.width, info.height, scale, {
          runtime: 'onnx',
          variant: 'slim',
        }),
        await superResolve(data, info.width, info.height, scale, {
          runtime: 'tfjs',
          variant: 'slim',
        }),
      ];
      expect(native.length).toBe(info.width * info.height * scale * scale * 3);
      let largest = 0;
      for (let i = 0; i < native.length; i += 1)
        largest = Math.max(largest, Math.abs(native[i]! - wasm[i]!));
      expect(largest).toBeLessThanOrEqual(1);
    },
  );
});
