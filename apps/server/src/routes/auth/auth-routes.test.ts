import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_QUESTIONS, userSchema } from '@refract/contracts';
import {
  bearer,
  freshAddress,
  registerUser,
  registrationBody,
  TEST_ADMIN,
} from '../../test/accounts.js';
import { subscribe } from '../../test/plans.js';
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
        currentPlan: { name: 'Basic' },
        preferredLanguage: 'en',
      });
      expect(res.body).not.toMatch(/argon2|Dune|Pad Thai|correct horse/i);
    });

    it('names the plan whose quotas apply, as the product names the field: at login, in /me, for a subscriber and an admin', async () => {
      const body = registrationBody();
      const { user } = (await post('/api/auth/register', body)).json();
      await subscribe(t.database.db, user._id, 'developer');
      const login = await post('/api/auth/login', { email: body.email, password: body.password });
      expect(login.json().user).toMatchObject({
        isAdmin: false,
        currentPlan: { name: 'Developer' },
      });
      const me = await t.app.inject({ url: '/api/auth/me', headers: bearer(login.json().token) });
      expect(me.json()).toMatchObject({ isAdmin: false, currentPlan: { name: 'Developer' } });
      const admin = await post('/api/auth/login', TEST_ADMIN);
      expect(admin.json().user).toMatchObject({ isAdmin: true, currentPlan: { name: 'admin' } });
    });

    it('accepts the older favBook/favMeal shape', async () => {
      const { securityQuestions: _, ...rest } = registrationBody();
      const res = await post('/api/auth/register', { ...rest, favBook: 'Emma', favMeal: 'Soup' });
      expect(res.statusCode).toBe(201);
    });

    it('refuses isAdmin in the body as an unknown field, creating no account', async () => {
      const body = registrationBody({ isAdmin: true });
      const res = await post('/api/auth/register', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'unknown_field', fields: ['isAdmin'] });
      const login = await post('/api/auth/login', { email: body.email, password: body.password });
      expect(login.statusCode).toBe(401);
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

  describe('email look-alikes', () => {
    it('refuses fullwidth, trailing-dot and case variants as email_taken, and signs them in as the same account', async () => {
      const { email, password, user } = await registerUser(t.app, {
        email: `ada.variant${Date.now()}@example.com`,
      });
      const [local] = email.split('@') as [string];
      const fullwidth = (text: string) =>
        text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
      const variants = [
        `${fullwidth(local.toUpperCase())}＠ｅｘａｍｐｌｅ．ｃｏｍ`,
        `${local}@example.com.`,
        `  ${local.toUpperCase()}@Example.COM.. `,
      ];
      await expectSameAccount(variants, password, user._id);
    });

    it('refuses variants with invisible characters (zero-width space, soft hyphen) as email_taken, and signs them in as the same account', async () => {
      const { email, password, user } = await registerUser(t.app, {
        email: `alice${Date.now()}@example.test`,
      });
      const variants = [
        `${email}\u200b`,
        `al\u00adice${email.slice('alice'.length)}`,
        `\u2060${email.replace('@', '\u200d@\ufeff')}`,
      ];
      await expectSameAccount(variants, password, user._id);
    });

    /** Each variant: taken at sign-up, and the same account at sign-in and recovery. */
    async function expectSameAccount(variants: string[], password: string, userId: string) {
      for (const variant of variants) {
        const label = JSON.stringify(variant);
        const taken = await post('/api/auth/register', registrationBody({ email: variant }));
        expect(taken.statusCode, label).toBe(409);
        expect(taken.json().code).toBe('email_taken');
        const res = await post('/api/auth/login', { email: variant, password });
        expect(res.statusCode, label).toBe(200);
        expect(res.json().user._id).toBe(userId);
        const recovery = await post('/api/auth/forgot-password/verify-answers', {
          email: variant,
          answers: ['Dune', 'Pad Thai'],
        });
        expect(recovery.statusCode, label).toBe(200);
      }
    }
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
    const login = (remoteAddress: string, email: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress,
        payload: { email, password },
      });

    it('lets the owner in from a clean IP after 10 wrong passwords from other IPs', async () => {
      const { email, password } = await registerUser(t.app);
      for (let i = 0; i < 10; i += 1) {
        expect((await login(`198.51.100.${i}`, email, `wrong-${i}-password`)).statusCode).toBe(401);
      }
      expect((await login('198.51.100.200', email, password)).statusCode).toBe(200);
      // Under attack, another clean IP gets one guess, then waits.
      expect((await login('198.51.100.201', email, 'one more guess')).statusCode).toBe(401);
      const blocked = await login('198.51.100.201', email, 'a second guess');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('too_many_requests');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // A refused attempt is not a failure: the owner still gets in from another clean IP.
      expect((await login('198.51.100.202', email, password)).statusCode).toBe(200);
    });

    it('limits guessing from one IP: 10 wrong passwords, then 429 even for the right one', async () => {
      const { email, password } = await registerUser(t.app);
      const ip = '203.0.113.10';
      for (let i = 0; i < 10; i += 1) {
        expect((await login(ip, email, `wrong-${i}-password`)).statusCode).toBe(401);
      }
      const blocked = await login(ip, email, password);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Another address in the same IPv6 /64 is the same client.
      const { email: other } = await registerUser(t.app);
      for (let i = 0; i < 10; i += 1)
        await login(`2001:db8:ffff:1::${i + 1}`, other, `wrong-${i}-password`);
      expect((await login('2001:db8:ffff:1::abcd', other, 'x-password')).statusCode).toBe(429);
    });

    it("counts failures, not successes: a success forgets that IP's failures on the account", async () => {
      const { email, password } = await registerUser(t.app);
      const home = '192.0.2.50';
      for (let i = 0; i < 12; i += 1)
        expect((await login(home, email, password)).statusCode).toBe(200);
      for (let i = 0; i < 3; i += 1) await login(home, email, `typo-${i}-password`);
      expect((await login(home, email, password)).statusCode).toBe(200);
      for (let i = 0; i < 10; i += 1)
        await login(`192.0.2.${100 + i}`, email, `wrong-${i}-password`);
      // The account is under attack; home's typos were forgotten by its success.
      expect((await login(home, email, password)).statusCode).toBe(200);
    });

    it('limits one IP across many emails', async () => {
      const ip = '203.0.113.77';
      for (let i = 0; i < 10; i += 1) {
        const res = await login(ip, `spray${i}@example.com`, 'password1');
        expect(res.statusCode).toBe(401);
      }
      expect((await login(ip, 'fresh@example.com', 'password1')).statusCode).toBe(429);
    });

    it('limits sign-ups per IP: 10 an hour, then 429 with Retry-After', async () => {
      const signUp = (remoteAddress: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          remoteAddress,
          payload: registrationBody(),
        });
      for (let i = 0; i < 10; i += 1) {
        // Every address of one IPv6 /64 counts as one client.
        expect((await signUp(`2001:db8:eeee:1::${i + 1}`)).statusCode).toBe(201);
      }
      const blocked = await signUp('2001:db8:eeee:1::ff');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('too_many_requests');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signUp('2001:db8:eeee:2::1')).statusCode).toBe(201);
    });
  });
});
