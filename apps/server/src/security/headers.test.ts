import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { pngBytes } from '../test/image-fixtures.js';
import { postForm } from '../test/multipart.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** A stand-in web build, so the page responses are checked too. */
function webDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'refract-web-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Refract</title>');
  return dir;
}

/** Every kind of answer: a page, a JSON API answer, an error, a 404 and a file download. */
async function everyKindOfAnswer(t: TestApp) {
  const { token } = await registerUser(t.app);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  return {
    page: await get('/pricing'),
    json: await get('/api/user/stats'),
    error: await t.app.inject({ method: 'GET', url: '/api/user/stats' }),
    notFound: await get('/api/nothing-here'),
    download: await postForm(t.app, '/api/convert', {
      token,
      fields: { format: 'png' },
      file: { content: await pngBytes() },
    }),
  };
}

describe('security headers', () => {
  let http: TestApp;
  let https: TestApp;
  const web = webDist();
  beforeAll(async () => {
    http = await createTestApp('sqlite', { env: { WEB_DIST_DIR: web } });
    https = await createTestApp('sqlite', {
      env: { WEB_DIST_DIR: web, PUBLIC_URL: 'https://refract.example.com' },
    });
  });
  afterAll(async () => {
    await http.close();
    await https.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('sends pages a CSP without inline script, and every other answer a CSP that allows nothing', async () => {
    for (const [kind, res] of Object.entries(await everyKindOfAnswer(http))) {
      const csp = String(res.headers['content-security-policy']);
      if (kind === 'page') {
        expect(/script-src ([^;]*)/.exec(csp)?.[1], kind).toBe("'self'");
        expect(csp, kind).toContain("object-src 'none'");
        expect(res.headers['x-frame-options'], kind).toBe('SAMEORIGIN');
      } else {
        // No script-src: scripts, like everything else, fall back to default-src 'none'.
        expect(csp, kind).toBe("default-src 'none'; frame-ancestors 'none'");
        expect(res.headers['x-frame-options'], kind).toBe('DENY');
      }
      expect(csp, kind).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], kind).toBe('nosniff');
      expect(res.headers['referrer-policy'], kind).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy'], kind).toBe('same-origin');
      expect(res.headers['x-request-id'], kind).toMatch(/^[\w-]{8,}$/);
      expect(res.headers['strict-transport-security'], kind).toBeUndefined();
    }
  });

  it('adds HSTS when PUBLIC_URL is https', async () => {
    for (const [kind, res] of Object.entries(await everyKindOfAnswer(https))) {
      expect(res.headers['strict-transport-security'], kind).toMatch(/max-age=\d{7,}/);
    }
  });

  it('sends every result file as an attachment that is never sniffed', async () => {
    const { download } = await everyKindOfAnswer(http);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="[\w.-]+"$/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('CORS', () => {
  const preflight = (t: TestApp, origin: string) =>
    t.app.inject({
      method: 'OPTIONS',
      url: '/api/user/stats',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
  const read = (t: TestApp, origin: string) =>
    t.app.inject({ method: 'GET', url: '/api/subscriptions/plans', headers: { origin } });

  it('is closed by default: no origin may read an answer', async () => {
    const t = await createTestApp('sqlite');
    try {
      for (const res of [
        await preflight(t, 'https://evil.example'),
        await read(t, 'https://evil.example'),
      ])
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('opens to the origins CORS_ORIGINS lists, and only to them, never with credentials', async () => {
    const t = await createTestApp('sqlite', {
      env: { CORS_ORIGINS: 'https://app.example, http://localhost:5173' },
    });
    try {
      const allowed = await preflight(t, 'https://app.example');
      expect(allowed.statusCode).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(allowed.headers['access-control-allow-headers']).toContain('authorization');
      expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();
      const reading = await read(t, 'http://localhost:5173');
      expect(reading.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      expect(reading.headers['access-control-expose-headers']).toContain('x-quota-remaining');
      for (const res of [
        await preflight(t, 'https://evil.example'),
        await read(t, 'https://app.example.evil.example'),
      ])
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('JSON bodies', () => {
  it('refuses a body over 1 MB with 413 payload_too_large before reading it as JSON', async () => {
    const t = await createTestApp('sqlite');
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024) }),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('payload_too_large');
    } finally {
      await t.close();
    }
  });
});
