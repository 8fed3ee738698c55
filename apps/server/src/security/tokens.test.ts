import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersRepository } from '../db/repositories/users-repository.js';
import { bearer, registerUser } from '../test/accounts.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

describe('session tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  const secret = () =>
    new TextEncoder().encode(
      readFileSync(join(t.database.options.dataDir, 'jwt-secret'), 'utf8').trim(),
    );
  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('refuses alg none', async () => {
    const { user } = await registerUser(t.app);
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: user._id, ep: 0, exp: 9999999999 })}.`;
    expect((await me(token)).statusCode).toBe(401);
  });

  it('refuses a token signed with another secret', async () => {
    const { user } = await registerUser(t.app);
    const token = await new SignJWT({ ep: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user._id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    expect((await me(token)).statusCode).toBe(401);
  });

  it('refuses an expired token and accepts a fresh one from the same secret', async () => {
    const { user } = await registerUser(t.app);
    const sign = (exp: number) =>
      new SignJWT({ ep: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user._id)
        .setExpirationTime(exp)
        .sign(secret());
    const now = Math.floor(Date.now() / 1000);
    expect((await me(await sign(now - 60))).statusCode).toBe(401);
    expect((await me(await sign(now + 60))).statusCode).toBe(200);
  });

  it('refuses a token with its payload edited', async () => {
    const { token } = await registerUser(t.app);
    const admin = await registerUser(t.app);
    const [header, , signature] = token.split('.');
    const forged = `${header}.${b64({ sub: admin.user._id, ep: 0, exp: 9999999999 })}.${signature}`;
    expect((await me(forged)).statusCode).toBe(401);
  });

  it('refuses the token of a deleted user', async () => {
    const { token, user } = await registerUser(t.app);
    await usersRepository(t.database.db).delete(user._id);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('refuses a malformed Authorization header', async () => {
    for (const authorization of ['Bearer', 'Basic abc', 'Bearer a b', 'Bearer x.y.z']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization },
      });
      expect(res.statusCode, authorization).toBe(401);
    }
  });

  it('refuses algorithm confusion: the same secret under HS384, HS512 or an RS256 header', async () => {
    const { user } = await registerUser(t.app);
    for (const alg of ['HS384', 'HS512']) {
      const token = await new SignJWT({ ep: 0 })
        .setProtectedHeader({ alg })
        .setSubject(user._id)
        .setExpirationTime('1h')
        .sign(secret());
      expect((await me(token)).statusCode, alg).toBe(401);
    }
    // An RS256 header over an HMAC made with the secret (the public-key-as-secret trick).
    const body = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ sub: user._id, ep: 0, exp: 9999999999 })}`;
    const mac = createHmac('sha256', secret()).update(body).digest('base64url');
    expect((await me(`${body}.${mac}`)).statusCode).toBe(401);
  });

  it('refuses isAdmin and other account fields in a profile body, changing nothing', async () => {
    const { token } = await registerUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/preferred-language',
      headers: bearer(token),
      payload: { language: 'de', isAdmin: true, is_admin: 1, email: 'admin@example.com' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'unknown_field' });
    const after = (await me(token)).json();
    expect(after).toMatchObject({ isAdmin: false });
    expect(after.preferredLanguage).not.toBe('de');
    expect(after.email).not.toBe('admin@example.com');
    const admin = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users',
      headers: bearer(token),
    });
    expect(admin.statusCode).toBe(403);
  });
});
