import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { chromiumOnce, hasChromium, ourChromium } from '../test/chromium-processes.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const STUCK = { html: '<script>while (true) {}</script>', width: 300, fullPage: false };
const PLAIN = { html: '<p>still alive</p>', width: 300, fullPage: false };
/** About a second of script, then a page: slow, but well within the time limit. */
const SLOW = {
  html: '<script>const end = Date.now() + 1000; while (Date.now() < end) {}</script><p>slow</p>',
  width: 300,
  fullPage: false,
};
/** 3 GB of typed arrays: outside V8's heap, so only a cap on the renderer process stops it. */
const TYPED_ARRAYS = {
  html:
    '<script>const keep = []; for (let i = 0; i < 30; i += 1) ' +
    '{ const b = new Uint8Array(1e8); b.fill(1); keep.push(b); }</script><p>done</p>',
  width: 300,
  fullPage: false,
};
/** 3 GB of JavaScript arrays, on V8's heap. */
const JS_ARRAYS = {
  html:
    '<script>const keep = []; for (let i = 0; i < 375; i += 1) ' +
    'keep.push(new Array(1e6).fill(i + 0.5));</script><p>done</p>',
  width: 300,
  fullPage: false,
};

describe.skipIf(!hasChromium())('hostile HTML cannot hold or leak the renderer', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    token = (await registerSubscriber(t)).token;
  });
  afterAll(() => t.close());

  const render = (payload: object, as = token) =>
    t.app.inject({ method: 'POST', url: '/api/html-to-image', payload, headers: bearer(as) });

  /** The one browser now running, after checking that it is exactly one and nothing leaked. */
  async function oneBrowser(): Promise<number> {
    const state = await chromiumOnce((s) => s.browsers.length === 1 && s.strays === 0);
    expect(state).toMatchObject({ browsers: [expect.any(Number)], strays: 0 });
    return state.browsers[0]!;
  }

  it('a timed-out render ends only its own page: the same single browser stays, and the next render works', async () => {
    expect((await render(PLAIN)).statusCode).toBe(200);
    const browser = await oneBrowser();
    const stuck = await render(STUCK);
    expect(stuck.statusCode).toBe(504);
    expect(stuck.json().code).toBe('render_timeout');
    expect(await oneBrowser()).toBe(browser);
    expect((await render(PLAIN)).statusCode).toBe(200);
  });

  it('an innocent render in flight while another times out still succeeds', async () => {
    let stuckDone = false;
    const stuck = render(STUCK).finally(() => (stuckDone = true));
    // Slow renders back to back in the other slot, so one is in flight when the limit strikes.
    const innocent: number[] = [];
    while (!stuckDone) innocent.push((await render(SLOW)).statusCode);
    innocent.push((await render(SLOW)).statusCode);
    expect((await stuck).statusCode).toBe(504);
    expect(innocent.length).toBeGreaterThan(2);
    expect(innocent.every((status) => status === 200)).toBe(true);
    await oneBrowser();
  });

  it('repeated timeouts, two at a time, never grow the number of browsers', async () => {
    expect((await render(PLAIN)).statusCode).toBe(200);
    const browser = await oneBrowser();
    const before = ourChromium().processes;
    for (let round = 0; round < 2; round += 1) {
      // A user of their own each round: one user's third timeout in a few minutes backs them off.
      const as = (await registerSubscriber(t)).token;
      const answers = await Promise.all([render(STUCK, as), render(STUCK, as)]);
      expect(answers.map((a) => a.statusCode)).toEqual([504, 504]);
      expect(await oneBrowser()).toBe(browser);
      // The stuck pages' renderer processes ended with their contexts.
      expect((await chromiumOnce((s) => s.processes <= before)).processes).toBeLessThanOrEqual(
        before,
      );
    }
    expect((await render(PLAIN)).statusCode).toBe(200);
  });

  it('a browser that dies is replaced by exactly one, even when renders ask at once', async () => {
    expect((await render(PLAIN)).statusCode).toBe(200);
    const dead = await oneBrowser();
    process.kill(dead, 'SIGKILL');
    // Gone and reaped, so the renderer has been told its browser disconnected.
    for (let i = 0; i < 50 && existsSync(`/proc/${dead}`); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    // Three users: one user may have only two renders in flight.
    const users = [token, (await registerSubscriber(t)).token, (await registerSubscriber(t)).token];
    const answers = await Promise.all(users.map((as) => render(PLAIN, as)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(await oneBrowser()).not.toBe(dead);
  });

  it.each([
    ['several GB of typed arrays', TYPED_ARRAYS],
    ['several GB of JavaScript arrays', JS_ARRAYS],
  ])(
    'a page filling %s fails with 422 render_too_large, is not charged, and the next render works',
    async (_, payload) => {
      const basic = await registerUser(t.app);
      const huge = await render(payload, basic.token);
      expect(huge.statusCode).toBe(422);
      expect(huge.json().code).toBe('render_too_large');
      const limit = Number(huge.headers['x-quota-limit']);
      expect(limit).toBeGreaterThan(0);
      expect(Number(huge.headers['x-quota-remaining'])).toBe(limit);
      const stats = (
        await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(basic.token) })
      ).json();
      expect(stats.imagesProcessed).toBe(0);
      // The next render works, and is the first one charged.
      const next = await render(PLAIN, basic.token);
      expect(next.statusCode).toBe(200);
      expect(Number(next.headers['x-quota-remaining'])).toBe(limit - 1);
      await oneBrowser();
    },
    40_000,
  );

  it('ends only the page over its memory cap: a render beside it succeeds', async () => {
    const [huge, innocent] = await Promise.all([render(TYPED_ARRAYS), render(SLOW)]);
    expect(huge.json().code).toBe('render_too_large');
    expect(innocent.statusCode).toBe(200);
    expect(ourChromium().browsers).toHaveLength(1);
  });
});
