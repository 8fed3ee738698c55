import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, type Access } from '../plugins/auth.js';
import { adminToken, bearer, registerUser } from '../test/accounts.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** The routes anyone may call. A new public route must be added here on purpose. */
const PUBLIC = [
  'GET /api/health',
  'GET /api/health/live',
  'GET /api/health/ready',
  'GET /api/site',
  'GET /api/formats',
  'GET /api/payments/mode',
  'GET /api/openapi.json',
  'GET /api/subscriptions/plans',
  'GET /api/subscriptions/plans/:id',
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/forgot-password/verify-email',
  'POST /api/auth/forgot-password/verify-answers',
  'POST /api/auth/forgot-password/reset',
];

interface Route {
  method: string;
  url: string;
  /** Read after start-up: later onRoute hooks may still declare it (registerPublicPlugin). */
  readonly access: Access | undefined;
}

const INDEX_HTML = '<!doctype html><title>Refract</title>';

type Caller = 'anonymous' | 'apiKey' | 'user' | 'admin';

/** The answer each caller must get on a route of each access level; `ok` is anything but 401/403. */
const EXPECTED: Record<Access, Record<Caller, number | 'ok'>> = {
  public: { anonymous: 'ok', apiKey: 'ok', user: 'ok', admin: 'ok' },
  optionalUser: { anonymous: 'ok', apiKey: 'ok', user: 'ok', admin: 'ok' },
  user: { anonymous: 401, apiKey: 403, user: 'ok', admin: 'ok' },
  userOrKey: { anonymous: 401, apiKey: 'ok', user: 'ok', admin: 'ok' },
  admin: { anonymous: 401, apiKey: 403, user: 403, admin: 'ok' },
  // Without its link's key, a checkout's route is a signed-in user's.
  checkoutLink: { anonymous: 401, apiKey: 403, user: 'ok', admin: 'ok' },
  // Only the metrics token opens it: no session or key, an admin's included.
  metrics: { anonymous: 401, apiKey: 401, user: 401, admin: 401 },
};

/** The same path written the ways a router or a proxy may read differently. */
function variants(path: string): string[] {
  const encoded = path.replace(/[a-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
  return [
    path.replace('/api/', '/api/%61').replace('/api/%61a', '/api/%61'), // first letter encoded
    encoded,
    path.replace('/api/', '/api//'),
    `/${path}`,
    path.toUpperCase(),
    path.replace(/\/(\w)/g, (_, c: string) => `/${c.toUpperCase()}`),
  ];
}

describe('every route is guarded where it is declared', () => {
  let t: TestApp;
  let webDist: string;
  const routes: Route[] = [];
  const headers = {} as Record<Caller, Record<string, string>>;

  beforeAll(async () => {
    // A built web app, so the static files' routes are walked too.
    webDist = mkdtempSync(join(tmpdir(), 'refract-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
    writeFileSync(join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
    t = await createTestApp('sqlite', {
      env: { WEB_DIST_DIR: webDist, METRICS_TOKEN: 'metrics-token-for-the-access-test' },
      onRoute: (route) => {
        for (const method of [route.method].flat())
          routes.push({
            method,
            url: route.url,
            get access() {
              return route.config?.access;
            },
          });
      },
    });
    const { token } = await registerUser(t.app);
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      headers: bearer(token),
      payload: { name: 'walker' },
    });
    headers.anonymous = {};
    headers.user = bearer(token);
    headers.apiKey = { 'x-api-key': key.json().key };
    headers.admin = bearer(await adminToken(t.app));
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const concrete = (url: string) =>
    url.replace(/:\w+/g, '00000000-0000-4000-8000-000000000000').replace(/\*$/, 'x');
  const call = (method: string, url: string, caller: Caller) =>
    t.app.inject({
      method: method as HTTPMethods,
      url,
      headers: headers[caller],
      ...(method === 'GET' || method === 'HEAD' ? {} : { payload: {} }),
    });

  it('declares an access level on every route, and only the listed routes are public', () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      expect(ACCESS_LEVELS, `${route.method} ${route.url}`).toContain(route.access);
    }
    const open = routes
      .filter((r) => r.access === 'public' || r.access === 'optionalUser')
      .filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'))
      .filter((r) => r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual([...PUBLIC].sort());
  });

  it('answers each caller as the route requires, before reading or validating the body', async () => {
    for (const route of routes) {
      const url = concrete(route.url);
      for (const caller of ['anonymous', 'apiKey', 'user', 'admin'] as const) {
        const expected = EXPECTED[route.access!][caller];
        const res = await call(route.method, url, caller);
        const label = `${caller} ${route.method} ${url}: ${res.statusCode} ${res.body.slice(0, 120)}`;
        if (expected === 'ok') expect([401, 403], label).not.toContain(res.statusCode);
        else expect(res.statusCode, label).toBe(expected);
        if (expected === 403 && caller === 'apiKey' && route.method !== 'HEAD')
          expect(res.json().code, label).toBe('api_key_not_allowed');
      }
    }
  });

  it('refuses encoded, doubled-slash and case variants of every protected path', async () => {
    const isProtected = (r: Route) => EXPECTED[r.access!].anonymous !== 'ok';
    for (const route of routes.filter(isProtected)) {
      for (const url of variants(concrete(route.url))) {
        for (const caller of ['anonymous', 'apiKey', 'user'] as const) {
          if (EXPECTED[route.access!][caller] === 'ok') continue;
          const res = await call(route.method, url, caller);
          const label = `${caller} ${route.method} ${url}: ${res.statusCode}`;
          // A path outside /api is a page of the web app: its shell, never data.
          if (res.statusCode === 200)
            expect(res.headers['content-type'], label).toMatch(/^text\/html/);
          else expect([401, 403, 404], label).toContain(res.statusCode);
        }
      }
    }
  });

  it('keeps admin data from a percent-encoded path (the reported bypass)', async () => {
    for (const url of ['/api/%61dmin/users?page=1', '/api/adm%69n/dashboard/stats']) {
      for (const caller of ['anonymous', 'apiKey', 'user'] as const) {
        const res = await call('GET', url, caller);
        expect(res.statusCode, `${caller} ${url}`).toBe(caller === 'anonymous' ? 401 : 403);
        expect(res.body).not.toContain('@example.com');
      }
    }
  });

  it('authenticates before it validates a body', async () => {
    const post = (caller: Caller) => call('POST', '/api/subscriptions/plans', caller);
    const anonymous = await post('anonymous');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).not.toHaveProperty('details');
    expect((await post('user')).statusCode).toBe(403);
    expect((await post('admin')).statusCode).toBe(400);
  });
});

describe('a route that declares no access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      beforeReady: (app) => app.get('/api/undeclared', async () => ({ secret: 'leaked' })),
    });
  });
  afterAll(() => t.close());

  it('refuses everyone, the admin included', async () => {
    for (const headers of [
      {},
      bearer((await registerUser(t.app)).token),
      bearer(await adminToken(t.app)),
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/undeclared', headers });
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('leaked');
    }
  });
});
