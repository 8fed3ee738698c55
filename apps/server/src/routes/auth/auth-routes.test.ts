import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_QUESTIONS, userSchema } from '@refract/contracts';
import { bearer, freshAddress, registerUser, registrationBody } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachDatabase('accounts API', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, headers = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers,
      remoteAddress: freshAddress(),
    });

  describe('register', () => {
    it('creates a user and answers 201 with a token and the public user', async () => {
      const body = registrationBody({ email: '  Grace.Hopper@Example.COM ' });
      const res = await post('/api/auth/register', body);
      expect(res.statusCode).toBe(201);
      const { token, user } = res.json();
      expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(userSchema.strict().parse(user)).toEqual({
        _id: expect.any(String),
        name: 'Ada Lovelace',
        email: 'grace.hopper@example.com',
        isAdmin: false,
        country: null,
        currentPlan: null,
        preferredLanguage: 'en',
      });
      expect(res.body).not.toMatch(/argon2|Dune|Pad Thai|correct horse/i);
    });

    it('accepts the older favBook/favMeal shape', async () => {
      const { securityQuestions: _, ...rest } = registrationBody();
      const res = await post('/api/auth/register', { ...rest, favBook: 'Emma', favMeal: 'Soup' });
      expect(res.statusCode).toBe(201);
    });

    it('ignores isAdmin in the body', async () => {
      const res = await post('/api/auth/register', registrationBody({ isAdmin: true }));
      expect(res.json().user.isAdmin).toBe(false);
    });

    it.each([
      ['not-an-email', 'invalid_email'],
      ['a@b', 'invalid_email'],
      ['two words@example.com', 'invalid_email'],
    ])('refuses the email %j with %s', async (email, code) => {
      const res = await post('/api/auth/register', registrationBody({ email }));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(code);
    });

    it('refuses a password under 8 characters with weak_password', async () => {
      const res = await post('/api/auth/register', registrationBody({ password: 'short12' }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'weak_password' });
    });

    it.each(['email', 'password', 'name'])('names the missing field %s', async (field) => {
      const res = await post('/api/auth/register', registrationBody({ [field]: undefined }));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(field);
    });

    it('needs both security answers', async () => {
      const one = registrationBody({
        securityQuestions: [{ question: SECURITY_QUESTIONS[0], answer: 'x' }],
      });
      expect((await post('/api/auth/register', one)).json().code).toBe('validation_failed');
      const { securityQuestions: _, ...none } = registrationBody();
      const res = await post('/api/auth/register', none);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        details: [{ path: 'securityQuestions' }],
      });
      const wrong = registrationBody({
        securityQuestions: [
          { question: 'Pet?', answer: 'x' },
          { question: 'Car?', answer: 'y' },
        ],
      });
      expect((await post('/api/auth/register', wrong)).json().code).toBe('validation_failed');
    });

    it('refuses a taken email, whatever its case, with 409 email_taken', async () => {
      const first = await registerUser(t.app);
      const res = await post(
        '/api/auth/register',
        registrationBody({ email: first.email.toUpperCase() }),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('email_taken');
    });
  });

  describe('login and me', () => {
    it('logs in with the right password and the token opens /api/auth/me', async () => {
      const { email, password } = await registerUser(t.app);
      const res = await post('/api/auth/login', { email: email.toUpperCase(), password });
      expect(res.statusCode).toBe(200);
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(res.json().token),
      });
      expect(me.statusCode).toBe(200);
      expect(me.json().email).toBe(email);
    });

    it('answers a wrong password and an unknown email identically', async () => {
      const { email } = await registerUser(t.app);
      const wrong = await post('/api/auth/login', { email, password: 'not the password' });
      const unknown = await post('/api/auth/login', {
        email: 'nobody@example.com',
        password: 'whatever1',
      });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      expect(wrong.json().code).toBe('invalid_credentials');
    });

    it('needs a token for /api/auth/me', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    });
  });

  describe('preferred language', () => {
    it('saves one of the 7 languages and /me shows it', async () => {
      const { token } = await registerUser(t.app);
      const res = await post('/api/user/preferred-language', { language: 'ar' }, bearer(token));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ preferredLanguage: 'ar' });
      const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
      expect(me.json().preferredLanguage).toBe('ar');
    });

    it('refuses other languages with 400 and needs a token', async () => {
      const { token } = await registerUser(t.app);
      const bad = await post('/api/user/preferred-language', { language: 'fr' }, bearer(token));
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('invalid_language');
      const anonymous = await post('/api/user/preferred-language', { language: 'de' });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('roles', () => {
    it('guards the admin routes: 401 without a token, 403 for a user', async () => {
      const { token } = await registerUser(t.app);
      for (const url of ['/api/admin/users', '/api/admin/dashboard/stats']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
        const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().code).toBe('forbidden');
      }
    });
  });

  describe('rate limits', () => {
    it('allows 10 login attempts per email in 15 minutes, then 429 with Retry-After', async () => {
      const { email, password } = await registerUser(t.app);
      // A different address each time: the limit follows the email, not only the IP.
      const attempt = (i: number, pw: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: `198.51.100.${i}`,
          payload: { email, password: pw },
        });
      for (let i = 0; i < 10; i += 1) {
        expect((await attempt(i, `wrong-${i}-password`)).statusCode).toBe(401);
      }
      const blocked = await attempt(10, password);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('too_many_requests');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('limits one IP across many emails', async () => {
      const ip = '203.0.113.77';
      for (let i = 0; i < 10; i += 1) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: ip,
          payload: { email: `spray${i}@example.com`, password: 'password1' },
        });
        expect(res.statusCode).toBe(401);
      }
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email: 'fresh@example.com', password: 'password1' },
      });
      expect(res.statusCode).toBe(429);
    });
  });
});
