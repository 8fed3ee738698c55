import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveExecutable } from '../media/engines.js';
import { HtmlRenderer, type RenderRequest } from '../media/html/html-renderer.js';
import { bearer } from '../test/accounts.js';
import { hasChromium } from '../test/chromium-processes.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const PLAIN: RenderRequest = {
  html: '<p>hello</p>',
  width: 200,
  fullPage: false,
  scale: 1,
  format: 'png',
};
const STUCK = { html: '<script>for (;;) {}</script>', width: 200, fullPage: false };

/** One user's flood of renders cannot hold HTML to image for everyone else. */
describe.skipIf(!hasChromium())('HTML render turns between users', () => {
  it("starts another user's render before one user's backlog", async () => {
    const started: string[] = [];
    // A cap high enough that only the order of turns keeps the flood back.
    const renderer = new HtmlRenderer(resolveExecutable('chromium'), {
      perUser: 12,
      onStart: (userId) => started.push(userId),
    });
    try {
      const flood = Array.from({ length: 6 }, () => renderer.render(PLAIN, 'flooder'));
      const other = renderer.render(PLAIN, 'other');
      await Promise.all([...flood, other]);
      // Both slots went to the flooder at once; the first to free up goes to the other user.
      expect(started.indexOf('other')).toBe(2);
    } finally {
      await renderer.close();
    }
  });

  describe('through the API', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('sqlite');
    });
    afterAll(() => t.close());

    const render = (token: string, payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/html-to-image', payload, headers: bearer(token) });

    it('refuses a third render in flight from one user with 429 too_many_renders and Retry-After; another user is served', async () => {
      const flooder = (await registerSubscriber(t)).token;
      const other = (await registerSubscriber(t)).token;
      const [a, b, c, d] = await Promise.all([
        render(flooder, STUCK),
        render(flooder, STUCK),
        render(flooder, STUCK),
        render(other, PLAIN),
      ]);
      const floods = [a!, b!, c!].sort((x, y) => x.statusCode - y.statusCode);
      expect(floods.map((r) => r.statusCode)).toEqual([429, 504, 504]);
      expect(floods[0]!.json().code).toBe('too_many_renders');
      expect(floods[0]!.headers['retry-after']).toBe('10');
      expect(d!.statusCode).toBe(200);
    });
  });
});
