import { describe, expect, it } from 'vitest';
import {
  logoBox,
  markCentres,
  MAX_WATERMARK_TILES,
  outlineColorFor,
  turnedBox,
  watermarkFieldsSchema,
} from './watermark.js';

const fields = (more: Record<string, string> = {}) =>
  watermarkFieldsSchema.parse({ text: 'Refract', ...more });

describe('watermark geometry (shared by the preview and the server)', () => {
  it('anchors the mark at a margin of the shorter side', () => {
    const image = { width: 1000, height: 500 };
    const mark = { width: 200, height: 50 };
    expect(markCentres(fields({ position: 'top-left', margin: '0.1' }), image, mark)).toEqual([
      { x: 150, y: 75 },
    ]);
    expect(markCentres(fields({ position: 'bottom-right', margin: '0' }), image, mark)).toEqual([
      { x: 900, y: 475 },
    ]);
    expect(markCentres(fields({ position: 'center' }), image, mark)).toEqual([{ x: 500, y: 250 }]);
  });

  it('tiles over the whole image, never more than MAX_WATERMARK_TILES', () => {
    const image = { width: 1000, height: 1000 };
    const tiles = markCentres(fields({ position: 'tiled', gap: '1' }), image, {
      width: 100,
      height: 40,
    });
    expect(tiles.length).toBeGreaterThan(50);
    const quadrantCentres: [number, number][] = [
      [250, 250],
      [750, 250],
      [250, 750],
      [750, 750],
    ];
    for (const [x, y] of quadrantCentres)
      expect(tiles.some((tile) => Math.abs(tile.x - x) < 200 && Math.abs(tile.y - y) < 80)).toBe(
        true,
      );
    const tiny = markCentres(
      fields({ position: 'tiled', gap: '0' }),
      { width: 20000, height: 20000 },
      {
        width: 2,
        height: 1,
      },
    );
    expect(tiny.length).toBeLessThanOrEqual(MAX_WATERMARK_TILES);
    expect(tiny.length).toBeGreaterThan(MAX_WATERMARK_TILES / 4);
  });

  it('turns boxes, fits tall logos and picks a contrasting outline', () => {
    const turned = turnedBox({ width: 100, height: 0 }, 90);
    expect(turned.width).toBeCloseTo(0);
    expect(turned.height).toBeCloseTo(100);
    expect(logoBox({ width: 10, height: 1000 }, 100, { width: 400, height: 300 })).toEqual({
      width: 3,
      height: 300,
    });
    expect(outlineColorFor('#ffffff')).toBe('#000000');
    expect(outlineColorFor('#102040')).toBe('#ffffff');
  });

  it('asks for text only when the mark is text', () => {
    expect(watermarkFieldsSchema.safeParse({ text: ' ' }).success).toBe(false);
    expect(watermarkFieldsSchema.safeParse({ mark: 'logo' }).success).toBe(true);
    expect(watermarkFieldsSchema.safeParse({ text: 'a', color: 'red' }).success).toBe(false);
  });
});
