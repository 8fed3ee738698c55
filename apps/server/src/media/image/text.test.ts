import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { inkCoverage, rgba } from '../../test/pixels.js';
import { escapeMarkup, renderText } from './text.js';

const render = (text: string, font: 'text' | 'meme' = 'text') =>
  renderText({ text, font, sizePx: 100, color: '#000000' });

/** Height of the inked rows of a rendered text. */
async function inkHeight(text: string) {
  const pixels = await rgba((await render(text)).png);
  const rows: number[] = [];
  for (let y = 0; y < pixels.height; y += 1)
    for (let x = 0; x < pixels.width; x += 1) if (pixels.at(x, y)[3]! > 127) rows.push(y);
  return Math.max(...rows) - Math.min(...rows) + 1;
}

describe('text rendering with the bundled fonts', () => {
  it('uses the bundled Anton (no system font) for memes: condensed, unlike Noto Sans', async () => {
    const anton = await render('MEME TEXT', 'meme');
    const sans = await render('MEME TEXT', 'text');
    expect(anton.width / sans.width).toBeLessThan(0.85);
  });

  it('draws CJK glyphs, not missing-glyph boxes', async () => {
    // 一 (one) and ー (long vowel mark) are thin horizontal strokes; a missing glyph is a tall box.
    const missingGlyph = await inkHeight('\uE000');
    expect(missingGlyph).toBeGreaterThan(50);
    expect(await inkHeight('一')).toBeLessThan(20);
    expect(await inkHeight('ー')).toBeLessThan(20);
    for (const text of ['你好世界', 'こんにちは', '漢字']) {
      const coverage = inkCoverage(await rgba((await render(text)).png));
      expect(coverage, text).toBeGreaterThan(0.05);
    }
  });

  it('shapes Arabic: joined letters are narrower than the same letters kept apart', async () => {
    const joined = await render('مرحبا بالعالم');
    // U+200C (zero-width non-joiner) stops the letters from joining, as unshaped text would be.
    const apart = await render([...'مرحبا بالعالم'].join('\u200C'));
    expect(joined.width).toBeLessThan(apart.width * 0.9);
    expect(await inkHeight('ـ')).toBeLessThan(25);
  });

  it('keeps markup in user text literal', async () => {
    expect(escapeMarkup('<b>a & b</b>')).toBe('&lt;b&gt;a &amp; b&lt;/b&gt;');
    const literal = await render('<b>x</b>');
    const plain = await render('x');
    expect(literal.width).toBeGreaterThan(plain.width * 3);
  });

  it('adds an outline around the glyphs', async () => {
    const plain = await renderText({ text: 'A', font: 'text', sizePx: 60, color: '#ffffff' });
    const outlined = await renderText({
      text: 'A',
      font: 'text',
      sizePx: 60,
      color: '#ffffff',
      outlinePx: 4,
    });
    expect(outlined.width).toBe(plain.width + 16);
    const { channels } = await sharp(outlined.png).stats();
    expect(channels[0]!.min).toBe(0);
    expect(channels[0]!.max).toBe(255);
  });

  it('holds a block of wide glyphs to its pixels: U+FDFD is nine times as wide as high', async () => {
    const maxPixels = 1_000_000;
    const wide = await renderText({
      text: '\uFDFD',
      font: 'text',
      sizePx: 32_760,
      color: '#000000',
      outlinePx: 48,
      maxPixels,
    });
    // The block, outline included, within the budget.
    expect(wide.width * wide.height).toBeLessThanOrEqual(maxPixels);
    expect(wide.width).toBeGreaterThan(wide.height * 3);
  });
});
