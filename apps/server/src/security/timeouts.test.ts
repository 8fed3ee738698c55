import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.js';
import { timeoutBackoff } from '../services/timeout-backoff.js';
import { bearer } from '../test/accounts.js';
import { hasChromium } from '../test/chromium-processes.js';
import { describeEachDatabase } from '../test/databases.js';
import { pngBytes } from '../test/image-fixtures.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** An endless script: the render always runs into its time limit (504 render_timeout). */
const STUCK = { html: '<script>for (;;) {}</script>', width: 200, fullPage: false };
const PLAIN = { html: '<p>hello</p>', width: 200, fullPage: false };

/** Work stopped at its time limit is not charged, so repeating it must not be free for ever. */
describeEachDatabase('repeated timeouts back a user off', (kind) => {
  describe.skipIf(!hasChromium())('through the API', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t.close());

    const render = (token: string, payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/html-to-image', payload, headers: bearer(token) });
    const used = async (token: string) =>
      (await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })).json()
        .imagesProcessed as number;

    it('answers the 4th request after 3 timeouts with 429 too_many_timeouts and Retry-After, uncharged, on HTML and image tools alike; another user is served', async () => {
      const stuck = (await registerSubscriber(t)).token;
      const other = (await registerSubscriber(t)).token;
      // Two at once (a user's renders in flight at most), then a third.
      const timedOut = [
        ...(await Promise.all([render(stuck, STUCK), render(stuck, STUCK)])),
        await render(stuck, STUCK),
      ];
      expect(timedOut.map((res) => res.json().code)).toEqual(Array(3).fill('render_timeout'));
      expect(await used(stuck)).toBe(0);

      const fourth = await render(stuck, PLAIN);
      expect(fourth.statusCode, fourth.body).toBe(429);
      expect(fourth.json().code).toBe('too_many_timeouts');
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
      const image = await postForm(t.app, '/api/rotate', {
        token: stuck,
        fields: { angle: '90' },
        file: { field: 'image', filename: 'in.png', content: await pngBytes(32, 24) },
      });
      expect(image.statusCode, image.body).toBe(429);
      expect(image.json().code).toBe('too_many_timeouts');
      expect(Number(image.headers['retry-after'])).toBeGreaterThan(0);
      expect(await used(stuck)).toBe(0);

      const served = await render(other, PLAIN);
      expect(served.statusCode, served.body).toBe(200);
    }, 120_000);
  });
});

describe('the timeout back-off', () => {
  const timeout = new AppError(504, 'processing_timeout', 'stopped');

  it('counts only timeouts, within the window, and lets the user in again once it passes', () => {
    let now = 0;
    const backoff = timeoutBackoff({ limit: 3, windowMs: 60_000, now: () => now });
    backoff.record('a', new AppError(422, 'invalid_image', 'damaged'));
    backoff.record('a', timeout);
    backoff.record('a', new AppError(504, 'render_timeout', 'stopped'));
    now = 30_000;
    backoff.check('a');
    backoff.record('a', timeout);
    backoff.check('b');
    expect(() => backoff.check('a')).toThrow(
      expect.objectContaining({
        status: 429,
        code: 'too_many_timeouts',
        // Until the first of the three leaves the window.
        headers: { 'retry-after': '30' },
      }),
    );
    now = 60_000;
    backoff.check('a');
  });
});
