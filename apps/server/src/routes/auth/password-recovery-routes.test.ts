import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_QUESTIONS } from '@refract/contracts';
import { bearer, freshAddress, registerUser, type RegisteredUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachDatabase('password recovery', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const prefix = '/api/auth/forgot-password';
  const post = (step: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `${prefix}/${step}`,
      payload,
      remoteAddress: freshAddress(),
    });
  const login = (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
      remoteAddress: freshAddress(),
    });
  async function resetTokenFor(user: RegisteredUser): Promise<string> {
    const res = await post('verify-answers', { email: user.email, answers: ['Dune', 'Pad Thai'] });
    expect(res.statusCode).toBe(200);
    return res.json().resetToken;
  }

  describe('verify-email', () => {
    it('returns the two questions for a known email', async () => {
      const user = await registerUser(t.app);
      const res = await post('verify-email', { email: user.email.toUpperCase() });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ questions: [...SECURITY_QUESTIONS] });
    });

    it('answers an unknown email exactly like a known one, at both steps', async () => {
      const user = await registerUser(t.app);
      const wrong = { answers: ['Emma', 'Pizza'] };
      const known = await post('verify-email', { email: user.email });
      const unknown = await post('verify-email', { email: 'ghost@example.com' });
      expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
      const knownAnswers = await post('verify-answers', { email: user.email, ...wrong });
      const unknownAnswers = await post('verify-answers', { email: 'ghost@example.com', ...wrong });
      expect(unknownAnswers.statusCode).toBe(400);
      expect([unknownAnswers.statusCode, unknownAnswers.body]).toEqual([
        knownAnswers.statusCode,
        knownAnswers.body,
      ]);
    });
  });

  describe('verify-answers', () => {
    it('accepts the answers whatever their case and spacing', async () => {
      const user = await registerUser(t.app);
      const res = await post('verify-answers', {
        email: user.email,
        answers: ['  DUNE ', 'pad   thai'],
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().resetToken).toMatch(/^[\w-]{40,}$/);
    });

    it('refuses a wrong answer with incorrect_answers', async () => {
      const user = await registerUser(t.app);
      for (const answers of [
        ['Dune', 'Pizza'],
        ['Emma', 'Pad Thai'],
      ]) {
        const res = await post('verify-answers', { email: user.email, answers });
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('incorrect_answers');
      }
    });
  });

  describe('reset', () => {
    it('sets the new password with a valid token and ends the old sessions', async () => {
      const user = await registerUser(t.app);
      const resetToken = await resetTokenFor(user);
      const res = await post('reset', {
        email: user.email,
        newPassword: 'a brand new secret',
        resetToken,
      });
      expect(res.statusCode).toBe(200);
      expect((await login(user.email, 'a brand new secret')).statusCode).toBe(200);
      expect((await login(user.email, user.password)).statusCode).toBe(401);
      const oldSession = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(user.token),
      });
      expect(oldSession.statusCode).toBe(401);
    });

    it('revokes the API keys on a reset: a key taken with the account stops working', async () => {
      const user = await registerUser(t.app);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/keys',
        payload: { name: 'taken' },
        headers: bearer(user.token),
      });
      expect(created.statusCode).toBe(201);
      const key: string = created.json().key;
      const byKey = () =>
        t.app.inject({ method: 'GET', url: '/api/user/stats', headers: { 'x-api-key': key } });
      expect((await byKey()).statusCode).toBe(200);
      const resetToken = await resetTokenFor(user);
      const res = await post('reset', {
        email: user.email,
        newPassword: 'a brand new secret',
        resetToken,
      });
      expect(res.json().message).toMatch(/API keys revoked/);
      const refused = await byKey();
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe('invalid_api_key');
      const session = (await login(user.email, 'a brand new secret')).json().token;
      const keys = await t.app.inject({
        method: 'GET',
        url: '/api/keys',
        headers: bearer(session),
      });
      expect(keys.json()).toEqual({ keys: [] });
    });

    it('refuses a reset from the email alone (the hole the earlier app had)', async () => {
      const user = await registerUser(t.app);
      for (const body of [
        { email: user.email, newPassword: 'hijacked password' },
        { email: user.email, newPassword: 'hijacked password', resetToken: '' },
        { email: user.email, newPassword: 'hijacked password', resetToken: 'guessed-token' },
      ]) {
        const res = await post('reset', body);
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('invalid_reset_token');
      }
      expect((await login(user.email, user.password)).statusCode).toBe(200);
    });

    it('refuses a token earned for another account', async () => {
      const victim = await registerUser(t.app);
      const attacker = await registerUser(t.app);
      const resetToken = await resetTokenFor(attacker);
      const res = await post('reset', {
        email: victim.email,
        newPassword: 'hijacked password',
        resetToken,
      });
      expect(res.json().code).toBe('invalid_reset_token');
      expect((await login(victim.email, victim.password)).statusCode).toBe(200);
    });

    it('spends a token once', async () => {
      const user = await registerUser(t.app);
      const resetToken = await resetTokenFor(user);
      expect(
        (await post('reset', { email: user.email, newPassword: 'first new password', resetToken }))
          .statusCode,
      ).toBe(200);
      const again = await post('reset', {
        email: user.email,
        newPassword: 'second new password',
        resetToken,
      });
      expect(again.json().code).toBe('invalid_reset_token');
      expect((await login(user.email, 'first new password')).statusCode).toBe(200);
    });

    it('lets only one of two concurrent resets with the same token through', async () => {
      const user = await registerUser(t.app);
      const resetToken = await resetTokenFor(user);
      const results = await Promise.all(
        ['racer one password', 'racer two password'].map((newPassword) =>
          post('reset', { email: user.email, newPassword, resetToken }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    });

    it('refuses an expired token', async () => {
      const user = await registerUser(t.app);
      const resetToken = await resetTokenFor(user);
      await t.database.db
        .updateTable('password_resets')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      const res = await post('reset', {
        email: user.email,
        newPassword: 'too late password',
        resetToken,
      });
      expect(res.json().code).toBe('invalid_reset_token');
    });

    it('replaces an older token when new answers are verified', async () => {
      const user = await registerUser(t.app);
      const first = await resetTokenFor(user);
      const second = await resetTokenFor(user);
      expect(
        (
          await post('reset', {
            email: user.email,
            newPassword: 'via first token',
            resetToken: first,
          })
        ).statusCode,
      ).toBe(400);
      expect(
        (
          await post('reset', {
            email: user.email,
            newPassword: 'via second token',
            resetToken: second,
          })
        ).statusCode,
      ).toBe(200);
    });

    it('refuses a weak new password without spending the token', async () => {
      const user = await registerUser(t.app);
      const resetToken = await resetTokenFor(user);
      const weak = await post('reset', { email: user.email, newPassword: 'short', resetToken });
      expect(weak.json().code).toBe('weak_password');
      const ok = await post('reset', {
        email: user.email,
        newPassword: 'long enough now',
        resetToken,
      });
      expect(ok.statusCode).toBe(200);
    });

    it('stores only a hash of the token', async () => {
      const user = await registerUser(t.app);
      const resetToken = await resetTokenFor(user);
      const rows = await t.database.db.selectFrom('password_resets').select('token_hash').execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(resetToken);
    });
  });

  it('rate-limits security answers per email: 10 per 15 minutes', async () => {
    const user = await registerUser(t.app);
    for (let i = 0; i < 10; i += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${prefix}/verify-answers`,
        remoteAddress: `192.0.2.${i}`,
        payload: { email: user.email, answers: ['guess', `guess ${i}`] },
      });
      expect(res.statusCode).toBe(400);
    }
    const blocked = await post('verify-answers', {
      email: user.email,
      answers: ['Dune', 'Pad Thai'],
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('rate-limits resets per IP', async () => {
    const ip = '192.0.2.200';
    for (let i = 0; i < 10; i += 1) {
      await t.app.inject({
        method: 'POST',
        url: `${prefix}/reset`,
        remoteAddress: ip,
        payload: { email: `x${i}@example.com`, newPassword: 'whatever123', resetToken: 'nope' },
      });
    }
    const res = await t.app.inject({
      method: 'POST',
      url: `${prefix}/reset`,
      remoteAddress: ip,
      payload: { email: 'y@example.com', newPassword: 'whatever123', resetToken: 'nope' },
    });
    expect(res.statusCode).toBe(429);
  });
});
