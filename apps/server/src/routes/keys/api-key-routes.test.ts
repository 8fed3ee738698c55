import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_API_KEYS } from '@refract/contracts';
import { adminToken, bearer, registerUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { pngBytes } from '../../test/image-fixtures.js';
import { multipart } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachDatabase('API keys', (kind) => {
  let t: TestApp;
  const log: string[] = [];
  const seen: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: { LOG_LEVEL: 'trace' },
      logStream: { write: (line) => void log.push(line) },
    });
  });
  afterAll(() => t.close());

  /** Every answer the suite receives, kept to check that no key leaks into one. */
  async function call(options: InjectOptions) {
    const res = await t.app.inject(options);
    seen.push(JSON.stringify(res.headers), res.body);
    return res;
  }

  /** The one answer allowed to hold the key; only its headers join `seen`. */
  async function createKey(token: string, name = 'ci') {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      payload: { name },
      headers: bearer(token),
    });
    seen.push(JSON.stringify(res.headers));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; key: string; prefix: string; name: string };
  }

  async function convert(headers: Record<string, string>) {
    const body = multipart({ format: 'webp' }, { filename: 'a.png', content: await pngBytes() });
    return call({
      method: 'POST',
      url: '/api/convert',
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
  }

  const stats = async (headers: Record<string, string>) =>
    call({ method: 'GET', url: '/api/user/stats', headers });

  it('creates a key shown once, and lists it by name and prefix only', async () => {
    const { token } = await registerUser(t.app);
    const created = await createKey(token, 'My laptop');
    expect(created.key).toMatch(/^rf_live_[\w-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 14));
    const list = await call({ method: 'GET', url: '/api/keys', headers: bearer(token) });
    expect(list.json()).toEqual({
      keys: [
        {
          id: created.id,
          name: 'My laptop',
          prefix: created.prefix,
          createdAt: expect.any(String),
          lastUsedAt: null,
        },
      ],
    });
  });

  it('converts an image with either header style, charged to the owner', async () => {
    const { token } = await registerUser(t.app);
    const { key } = await createKey(token);
    const styles: Record<string, string>[] = [
      { authorization: `Bearer ${key}` },
      { 'x-api-key': key },
    ];
    for (const headers of styles) {
      const res = await convert(headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['x-quota-limit']).toBe('3');
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    const owner = (await stats(bearer(token))).json();
    expect(owner.usage.find((u: { service: string }) => u.service === 'convert-from-jpg')).toEqual(
      expect.objectContaining({ used: 2, remaining: 1 }),
    );
    const byKey = await stats({ 'x-api-key': key });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json()).toEqual(owner);
    const [listed] = (
      await call({ method: 'GET', url: '/api/keys', headers: bearer(token) })
    ).json().keys;
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it('refuses a revoked key at once with 401 invalid_api_key', async () => {
    const { token } = await registerUser(t.app);
    const { id, key } = await createKey(token);
    expect((await stats(bearer(key))).statusCode).toBe(200);
    const revoked = await call({
      method: 'DELETE',
      url: `/api/keys/${id}`,
      headers: bearer(token),
    });
    expect(revoked.statusCode).toBe(204);
    for (const headers of [bearer(key), { 'x-api-key': key }]) {
      const res = await stats(headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('invalid_api_key');
    }
    expect((await convert(bearer(key))).statusCode).toBe(401);
    expect((await stats(bearer('rf_live_made-up'))).json().code).toBe('invalid_api_key');
  });

  it('never works on account, payment or admin routes (403 api_key_not_allowed)', async () => {
    const admin = await adminToken(t.app);
    const { key: adminKey, id } = await createKey(admin);
    const { token } = await registerUser(t.app);
    const { key } = await createKey(token);
    const attempts = [
      { method: 'GET', url: '/api/auth/me' },
      { method: 'POST', url: '/api/user/preferred-language', payload: { language: 'de' } },
      {
        method: 'POST',
        url: '/api/user/track',
        payload: { service: 'modify-crop', imageCount: 1 },
      },
      { method: 'GET', url: '/api/keys' },
      { method: 'POST', url: '/api/keys', payload: { name: 'from a key' } },
      { method: 'DELETE', url: `/api/keys/${id}` },
      { method: 'GET', url: '/api/payments/subscription-status' },
      { method: 'GET', url: '/api/admin/users' },
      { method: 'GET', url: '/api/admin/dashboard/stats' },
      { method: 'GET', url: '/api/admin/payments' },
      { method: 'DELETE', url: '/api/subscriptions/plans/some-plan' },
    ] as const;
    for (const attempt of attempts) {
      for (const as of [adminKey, key]) {
        for (const headers of [bearer(as), { 'x-api-key': as }]) {
          const res = await call({ ...attempt, headers });
          expect(res.statusCode, `${attempt.method} ${attempt.url}`).toBe(403);
          expect(res.json().code).toBe('api_key_not_allowed');
        }
      }
    }
    // A key beside a valid session token does not sneak past either.
    const both = await call({
      method: 'GET',
      url: '/api/auth/me',
      headers: { ...bearer(token), 'x-api-key': key },
    });
    expect(both.statusCode).toBe(403);
    // The admin's key survived the attempt to delete it with itself.
    expect((await stats(bearer(adminKey))).statusCode).toBe(200);
  });

  it('lets only the owner revoke a key; others get 404', async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const { id, key } = await createKey(owner.token);
    const res = await call({
      method: 'DELETE',
      url: `/api/keys/${id}`,
      headers: bearer(other.token),
    });
    expect(res.statusCode).toBe(404);
    expect((await stats(bearer(key))).statusCode).toBe(200);
    const list = await call({ method: 'GET', url: '/api/keys', headers: bearer(other.token) });
    expect(list.json()).toEqual({ keys: [] });
  });

  it(`allows at most ${MAX_API_KEYS} keys per user (409 api_key_limit_reached)`, async () => {
    const { token } = await registerUser(t.app);
    await Promise.all(Array.from({ length: MAX_API_KEYS }, (_, i) => createKey(token, `k${i}`)));
    const res = await call({
      method: 'POST',
      url: '/api/keys',
      payload: { name: 'one too many' },
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('api_key_limit_reached');
    const racing = await Promise.all(
      Array.from({ length: 3 }, () =>
        call({ method: 'POST', url: '/api/keys', payload: { name: 'x' }, headers: bearer(token) }),
      ),
    );
    expect(racing.map((r) => r.statusCode)).toEqual([409, 409, 409]);
  });

  it('checks the name', async () => {
    const { token } = await registerUser(t.app);
    for (const name of ['', '   ', 'x'.repeat(61)]) {
      const res = await call({
        method: 'POST',
        url: '/api/keys',
        payload: { name },
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('never shows a key or its hash after creation: not in answers, not in the log', async () => {
    const { token } = await registerUser(t.app);
    const created = await createKey(token);
    const secret = created.key;
    const hash = createHash('sha256').update(secret).digest('hex');
    await convert({ 'x-api-key': secret });
    await stats(bearer(secret));
    await call({ method: 'GET', url: '/api/auth/me', headers: { 'x-api-key': secret } });
    await call({ method: 'GET', url: '/api/keys', headers: bearer(token) });
    await call({ method: 'DELETE', url: `/api/keys/${created.id}`, headers: bearer(token) });
    await stats(bearer(secret));
    expect(log.length).toBeGreaterThan(10);
    for (const text of [...seen, ...log]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(hash);
      expect(text).not.toContain(secret.slice(14));
    }
  });
});
