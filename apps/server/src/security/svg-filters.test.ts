import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { registerUser } from '../test/accounts.js';
import { describeEachDatabase } from '../test/databases.js';
import { pngBytes } from '../test/image-fixtures.js';
import { leftIn, postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { imageSlotCounters, setImageSlotLimit } from '../media/image/slots.js';
import { RASTER_MARK } from '../media/image/svg-raster.js';
import { filteredSvg, svgFilterBomb } from './hostile-images.js';

/** Within the filter budget (9 MP, one primitive), but it would draw for many minutes. */
const ENDLESS_FILTER = filteredSvg(3000, '<feMorphology radius="100"/>');

/** Whether the answer's quota headers show every use of the month still left (a free user). */
const uncharged = (headers: Record<string, unknown>) =>
  headers['x-quota-remaining'] === headers['x-quota-limit'];

/** Processes still drawing an SVG (the child's arguments carry a marker). */
const drawing = () => {
  try {
    return execFileSync('pgrep', ['-f', RASTER_MARK], { encoding: 'utf8' }).trim();
  } catch {
    return ''; // pgrep exits 1 when nothing matches
  }
};

describeEachDatabase('SVG filters', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    token = (await registerUser(t.app)).token;
    // The slot limit, shortened so a stopped drawing is seen in seconds (it is 60 s).
    setImageSlotLimit(4_000);
  });
  afterAll(async () => {
    setImageSlotLimit(60_000);
    // A drawing left by a failed test would run for minutes beside the next ones.
    spawnSync('pkill', ['-9', '-f', RASTER_MARK]);
    await t.close();
  });

  const convert = (content: Buffer, as = token) =>
    postForm(t.app, '/api/convert', {
      token: as,
      fields: { format: 'png' },
      file: { filename: 'drawing.svg', content },
    });

  it('refuses filters past the pixel budget before drawing anything, uncharged', async () => {
    const res = await convert(svgFilterBomb());
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('image_too_large');
    expect(uncharged(res.headers)).toBe(true);
    expect(drawing()).toBe('');
  });

  it('stops a drawing at the slot limit: its process is killed and its slot freed', async () => {
    const before = imageSlotCounters();
    const other = await registerUser(t.app);
    const held = convert(ENDLESS_FILTER);
    await vi.waitFor(() => expect(drawing()).not.toBe(''), { timeout: 30_000, interval: 50 });
    // Another user's work still runs while the drawing holds its slot.
    const small = await postForm(t.app, '/api/rotate', {
      token: other.token,
      fields: { angle: '90' },
      file: { filename: 'small.png', content: await pngBytes(64, 64) },
    });
    expect(small.statusCode).toBe(200);
    const res = await held;
    expect(res.statusCode).toBe(504);
    expect(res.json().code).toBe('processing_timeout');
    expect(uncharged(res.headers)).toBe(true);
    const after = imageSlotCounters();
    expect(after.overran).toBe(before.overran + 1);
    expect(after.active).toBe(0);
    await vi.waitFor(() => expect(drawing()).toBe(''), { timeout: 30_000, interval: 50 });
    await vi.waitFor(() => expect(leftIn(t.database.options.dataDir, 'tmp')).toEqual([]));
  }, 120_000);

  it('still draws an SVG with a drop shadow', async () => {
    const shadow = filteredSvg(
      400,
      '<feGaussianBlur in="SourceAlpha" stdDeviation="4"/><feOffset dx="3" dy="3"/>' +
        '<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge>',
    );
    const res = await convert(shadow);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
  });
});
