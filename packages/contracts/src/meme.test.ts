import { describe, expect, it } from 'vitest';
import {
  fitMemeText,
  memeBandPx,
  memeFieldsSchema,
  memeFontPx,
  MEME_MAX_KEPT_LINES,
  MEME_MAX_LINES,
  type MemeMeasure,
} from './meme.js';

/** Every character 50 px wide at the measuring size (half the font), spaces 25 px. */
const measure: MemeMeasure = { word: (word) => word.length * 50, space: 25 };

describe('meme layout', () => {
  it('sizes the font by the image height', () => {
    expect(memeFontPx(600, 10)).toBe(60);
    expect(memeFontPx(4000, 10)).toBe(400);
    expect(memeFontPx(20, 4)).toBe(4);
  });

  it('keeps a short caption at the asked size on one line', () => {
    expect(fitMemeText('HELLO', 60, 580, measure)).toEqual({ fontPx: 60, lines: ['HELLO'] });
  });

  it('shrinks a long caption until it takes at most three lines within the width', () => {
    const text = 'ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE';
    const fit = fitMemeText(text, 60, 580, measure);
    expect(fit.fontPx).toBeLessThan(60);
    expect(fit.lines.length).toBeLessThanOrEqual(MEME_MAX_LINES);
    expect(fit.lines.join(' ')).toBe(text);
    const width = (line: string) =>
      ((line.replace(/ /g, '').length * 50 + (line.split(' ').length - 1) * 25) * fit.fontPx) / 100;
    for (const line of fit.lines) expect(width(line)).toBeLessThanOrEqual(580);
  });

  it('shrinks a word wider than the image', () => {
    const fit = fitMemeText('SUPERCALIFRAGILISTIC', 100, 300, measure);
    expect((20 * fit.fontPx) / 2).toBeLessThanOrEqual(300);
  });

  it('keeps at most a few lines when nothing fits even at the smallest size', () => {
    const fit = fitMemeText('A B C D E F G H I J K L', 40, 1, measure);
    expect(fit.fontPx).toBe(4);
    expect(fit.lines).toHaveLength(MEME_MAX_KEPT_LINES);
  });

  it('makes an outside band one line high for no text, and taller for more lines', () => {
    expect(memeBandPx({ fontPx: 20, lines: [] }, 4)).toBe(32);
    expect(memeBandPx({ fontPx: 20, lines: ['A', 'B'] }, 4)).toBe(56);
  });

  it('reads the old fields with the new defaults, and boxes from JSON', () => {
    const fields = memeFieldsSchema.parse({ topText: ' hi ', position: 'outside' });
    expect(fields).toMatchObject({ topText: 'hi', fontSize: 10, outline: 6, boxes: [] });
    const boxes = memeFieldsSchema.parse({ boxes: '[{"text":"a","x":0.1,"y":0.2,"width":0.3}]' });
    expect(boxes.boxes).toEqual([{ text: 'a', x: 0.1, y: 0.2, width: 0.3 }]);
    expect(memeFieldsSchema.safeParse({ boxes: 'nope' }).success).toBe(false);
  });
});
