import { afterAll, describe, expect, it } from 'vitest';
import { closeSuperResolution, superResolve, TILE } from './super-resolution.js';

describe('super-resolution tiles', { timeout: 120_000 }, () => {
  afterAll(() => closeSuperResolution());

  it('stops between tiles when the request is aborted', async () => {
    const [width, height] = [TILE * 2 + 10, TILE + 5]; // 3 × 2 tiles
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
    const [width, height] = [TILE + 20, 30];
    const out = await superResolve(Buffer.alloc(width * height * 3, 128), width, height, 2);
    expect(out.length).toBe(width * 2 * height * 2 * 3);
    const values = new Set(out);
    expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(6);
  });
});
