import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

describe('error envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Routes that exist only to exercise the error handler.
    t = await createTestApp('sqlite', { beforeReady: addTestRoutes });
  });
  afterAll(() => t.close());

  function addTestRoutes(app: TestApp['app']) {
    const open = { config: { access: 'public' as const } };
    app.get('/api/test/app-error', open, async () => {
      throw new AppError(409, 'email_taken', 'That email is taken');
    });
    app.get('/api/test/busy', open, async () => {
      throw new AppError(503, 'engine_unavailable', 'No engine');
    });
    app.get('/api/test/slow-down', open, async () => {
      throw new AppError(429, 'too_many_requests', 'Slow down', { 'retry-after': '7' });
    });
    app.get('/api/test/crash', open, async () => {
      throw new Error('secret internals at /srv/app.ts:42');
    });
    app.post(
      '/api/test/validate',
      { ...open, schema: { body: z.object({ email: z.string().email(), age: z.number().int() }) } },
      async () => ({ ok: true }),
    );
  }

  it('answers unknown /api routes with a 404 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No route for GET /api/nope', code: 'not_found' });
  });

  it('turns an AppError into its status and code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/app-error' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'That email is taken', code: 'email_taken' });
  });

  it('gives every 429 and 503 a Retry-After, keeping one the thrower set', async () => {
    const busy = await t.app.inject({ method: 'GET', url: '/api/test/busy' });
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe('30');
    const slow = await t.app.inject({ method: 'GET', url: '/api/test/slow-down' });
    expect(slow.headers['retry-after']).toBe('7');
    const fine = await t.app.inject({ method: 'GET', url: '/api/test/app-error' });
    expect(fine.headers['retry-after']).toBeUndefined();
  });

  it('never leaks a stack trace or message on a 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/test/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal server error', code: 'internal_error' });
    expect(res.body).not.toContain('secret internals');
  });

  it('gives validation errors a code and details naming the fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/validate',
      payload: { email: 'nope', age: 1.5 },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_failed');
    expect(body.details.map((d: { path: string }) => d.path).sort()).toEqual(['age', 'email']);
  });

  it('answers malformed JSON with validation_failed', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/validate',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });

  it('refuses JSON bodies over 1 MB with payload_too_large', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/validate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });

  it('sets security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });
});

describe('serving the web app', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'refract-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    t = await createTestApp('sqlite', { env: { WEB_DIST_DIR: webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it.each(['/', '/plans', '/admin/users', '/convert?x=1'])(
    'falls back to index.html for %s',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    },
  );

  it('keeps 404 envelopes for the API and missing files', async () => {
    for (const url of ['/api/missing', '/assets/missing.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
  });
});
