import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer, registerUser } from '../test/accounts.js';
import { describeEachDatabase } from '../test/databases.js';
import { pngBytes } from '../test/image-fixtures.js';
import { postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** What the outside review tried that held, kept as tests so that it keeps holding. */
describeEachDatabase('charges across credentials', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('charges exactly 3 of 28 parallel uses: two sessions, an API key and track', async () => {
    const { token, email, password } = await registerUser(t.app);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress: '2001:db8::aa',
    });
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(token),
      payload: { name: 'race' },
    });
    const image = await pngBytes();
    const rotate = (headers: Record<string, string>) =>
      postForm(t.app, '/api/rotate', {
        headers,
        fields: { angle: '90' },
        file: { content: image },
      });
    const track = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/track',
        headers: bearer(token),
        payload: { service: 'modify-rotate', imageCount: 1 },
      });
    const calls = Array.from({ length: 7 }, () => [
      rotate(bearer(token)),
      rotate({ 'x-api-key': key.json().key }),
      rotate(bearer(second.json().token)),
      track(),
    ]).flat();
    const answers = await Promise.all(calls);
    for (const res of answers.filter((r) => r.statusCode !== 200)) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('quota_exceeded');
    }
    // A run either is charged or takes a use tracked before it: 3 charges, at most 3 results.
    const stats = await t.app.inject({ url: '/api/user/stats', headers: bearer(token) });
    expect(stats.json().imagesProcessed).toBe(3);
    const results = answers.filter((r, i) => i % 4 !== 3 && r.statusCode === 200);
    expect(results.length).toBeLessThanOrEqual(3);
  });
});

describe('malformed input on every route', () => {
  let t: TestApp;
  const routes: { method: string; url: string }[] = [];
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      onRoute: (route) => {
        for (const method of [route.method].flat())
          if (method !== 'HEAD') routes.push({ method, url: route.url });
      },
    });
  });
  afterAll(() => t.close());

  const JUNK_BODIES: { type: string; body: string }[] = [
    { type: 'application/json', body: '{"a":' },
    { type: 'application/json', body: 'null' },
    { type: 'application/json', body: '[]' },
    { type: 'application/json', body: '"text"' },
    { type: 'application/json', body: '{"__proto__":{"isAdmin":true},"constructor":{}}' },
    { type: 'application/json', body: JSON.stringify({ email: ['a'], password: { $gt: '' } }) },
    {
      type: 'application/json',
      body: JSON.stringify({ page: -1e308, planId: Number.MAX_VALUE, id: null }),
    },
    {
      type: 'multipart/form-data; boundary=x',
      body: '--x\r\nContent-Disposition: form-data\r\n\r\n',
    },
    { type: 'multipart/form-data', body: 'no boundary' },
    { type: 'text/plain', body: '\u0000\uffff' },
  ];
  const JUNK_SEGMENTS = [
    '%00',
    '..%2f..%2fetc%2fpasswd',
    'x'.repeat(2000),
    '%F0%9F%92%A9',
    "'; DROP TABLE users; --",
  ];

  it('never answers 5xx, signed in as a user or as the admin', async () => {
    const tokens = [(await registerUser(t.app)).token, await adminToken(t.app)];
    let sent = 0;
    for (const token of tokens) {
      for (const route of routes) {
        const urls = route.url.includes(':')
          ? JUNK_SEGMENTS.map((junk) => route.url.replace(/:\w+/g, junk))
          : [`${route.url}?page=abc&search[$ne]=1&async=maybe`];
        for (const url of urls) {
          const bodies =
            route.method === 'GET' || route.method === 'DELETE' ? [undefined] : JUNK_BODIES;
          for (const junk of bodies) {
            const res = await t.app.inject({
              method: route.method as HTTPMethods,
              url,
              headers: { ...bearer(token), ...(junk ? { 'content-type': junk.type } : {}) },
              ...(junk ? { payload: junk.body } : {}),
            });
            sent += 1;
            const label = `${route.method} ${url.slice(0, 80)} ${junk?.body.slice(0, 40) ?? ''}`;
            expect(res.statusCode, label).toBeLessThan(500);
            if (res.statusCode >= 400) expect(res.json().code, label).toMatch(/^[a-z_]+$/);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(500);
  });
});
