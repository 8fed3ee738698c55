import { describe, expect, it } from 'vitest';
import { FACE_MARGIN, padFace } from './face-detector.js';

describe('padFace', () => {
  it('grows each side by the margin, so hair, ears and jaw are covered too', () => {
    expect(FACE_MARGIN).toBe(0.15);
    expect(
      padFace({ x: 100, y: 200, width: 100, height: 200 }, { width: 1000, height: 1000 }),
    ).toEqual({ x: 85, y: 170, width: 130, height: 260 });
  });

  it('stays inside the image at its edges', () => {
    expect(padFace({ x: 5, y: 10, width: 100, height: 100 }, { width: 110, height: 120 })).toEqual({
      x: 0,
      y: 0,
      width: 110,
      height: 120,
    });
  });
});
