import { describe, expect, it } from 'vitest';
import { frameAt, ratioValue, resized, zoomOf } from './crop-geometry';
import { cropFields, frameOn, INITIAL_CROP } from './crop-settings';

const view = { width: 800, height: 400 };
const custom = { width: 5, height: 4 };

describe('crop geometry', () => {
  it('works out each ratio, and its portrait', () => {
    expect(ratioValue('free', view, custom, false)).toBeNull();
    expect(ratioValue('original', view, custom, true)).toBe(2);
    expect(ratioValue('4:3', view, custom, false)).toBeCloseTo(4 / 3);
    expect(ratioValue('4:3', view, custom, true)).toBeCloseTo(3 / 4);
    expect(ratioValue('9:16', view, custom, false)).toBeCloseTo(9 / 16);
    expect(ratioValue('9:16', view, custom, true)).toBeCloseTo(16 / 9);
    expect(ratioValue('custom', view, custom, false)).toBeCloseTo(5 / 4);
  });

  it('centres the largest frame of the ratio, smaller by the zoom', () => {
    expect(frameAt(view, 4 / 3, 1)).toEqual({ x: 133, y: 0, width: 533, height: 400 });
    const zoomed = frameAt(view, 4 / 3, 2);
    expect(zoomed).toEqual({ x: 267, y: 100, width: 267, height: 200 });
    expect(zoomOf(zoomed, view)).toBeCloseTo(2, 1);
  });

  it('sizes a free frame by any side, a fixed one by its corner, inside the image', () => {
    const start = { x: 100, y: 100, width: 200, height: 100 };
    expect(resized(start, { right: true }, 50, 0, null, view)).toEqual({ ...start, width: 250 });
    expect(resized(start, { top: true }, 0, -500, null, view)).toEqual({
      x: 100,
      y: 0,
      width: 200,
      height: 200,
    });
    // 2:1 from the bottom right corner: the top left stays, the height follows.
    expect(resized(start, { right: true, bottom: true }, 100, 0, 2, view)).toEqual({
      x: 100,
      y: 100,
      width: 300,
      height: 150,
    });
    // Too big for the room left: as big as fits.
    expect(resized(start, { right: true, bottom: true }, 5000, 0, 2, view).height).toBe(300);
  });

  it('sends the frame of a file in its own pixels, at the same place and nearness', () => {
    const first = {
      ...INITIAL_CROP,
      ratio: '1:1',
      frame: { x: 0, y: 0, width: 200, height: 200 },
      view,
    };
    // A file twice as big: the same corner, as near.
    expect(frameOn(first, { width: 1600, height: 800 })).toEqual({
      x: 0,
      y: 0,
      width: 400,
      height: 400,
    });
    // Turned, the view is 400 × 800 and the numbers are in it.
    expect(cropFields({ ...INITIAL_CROP, turn: 90 }, view)).toMatchObject({
      turn: '90',
      x: '0',
      y: '250',
      width: '400',
      height: '300',
    });
  });
});
