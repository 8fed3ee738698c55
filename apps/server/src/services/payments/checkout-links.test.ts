import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminToken, bearer, registerUser, type RegisteredUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const CLIENT = 'https://client.example';
const PAY = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Ada' };

/**
 * A client on another site (one of CORS_ORIGINS) starts a checkout: its user comes back to its
 * own pages, and the checkout's page opens from its link without a second sign-in here.
 */
describeEachDatabase('checkout links and return addresses', (kind) => {
  let t: TestApp;
  let developer: string;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: { PUBLIC_URL: 'https://refract.example', CORS_ORIGINS: CLIENT },
    });
    const admin = await adminToken(t.app);
    const plans = (
      await t.app.inject({ url: '/api/subscriptions/plans', headers: bearer(admin) })
    ).json() as { _id: string; name: string }[];
    developer = plans.find((p) => p.name === 'Developer')!._id;
  });
  afterAll(() => t.close());

  const start = (user: RegisteredUser, body: object = {}, origin?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/create-checkout-session',
      headers: { ...bearer(user.token), ...(origin ? { origin } : {}) },
      payload: { planId: developer, billingType: 'monthly', ...body },
    });
  const link = async (user: RegisteredUser, body: object = {}, origin?: string) => {
    const res = await start(user, body, origin);
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json().url);
    return { id: url.pathname.split('/').pop()!, key: url.hash.replace('#key=', '') };
  };
  /** A call with the link's key and no sign-in, as the page opened from the link makes it. */
  const byLink = (id: string, key: string, pay?: object) =>
    t.app.inject({
      method: pay ? 'POST' : 'GET',
      url: `/api/sandbox/checkout/${id}${pay ? '/pay' : ''}`,
      headers: { 'x-checkout-key': key },
      payload: pay,
    });
  const checkouts = async (userId: string) =>
    t.database.db
      .selectFrom('checkout_sessions')
      .select('id')
      .where('user_id', '=', userId)
      .execute();

  it('returns a caller from an allowed origin to its own pages, opened by the link alone', async () => {
    const user = await registerUser(t.app);
    const { id, key } = await link(user, {}, CLIENT);
    const view = await byLink(id, key);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({ status: 'open', cancelUrl: `${CLIENT}/cancel` });
    const paid = await byLink(id, key, PAY);
    expect(paid.json()).toEqual({ redirect: `${CLIENT}/success` });
    const stats = await t.app.inject({ url: '/api/user/stats', headers: bearer(user.token) });
    expect(stats.json().plan.name).toBe('Developer');
    // Spent: the checkout is paid, so its link opens nothing any more.
    const again = await byLink(id, key);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('checkout_link_invalid');
  });

  it('takes return addresses on an allowed origin and refuses others, creating nothing', async () => {
    const user = await registerUser(t.app);
    const asked = { successUrl: `${CLIENT}/paid?plan=dev`, cancelUrl: `${CLIENT}/plans` };
    const { id, key } = await link(user, asked);
    expect((await byLink(id, key)).json().cancelUrl).toBe(asked.cancelUrl);
    expect((await byLink(id, key, PAY)).json()).toEqual({ redirect: asked.successUrl });

    const other = await registerUser(t.app);
    for (const body of [
      { successUrl: 'https://evil.example/success' },
      { cancelUrl: 'https://client.example.evil.example/cancel' },
      { successUrl: 'http://client.example/success' },
    ]) {
      const refused = await start(other, body, CLIENT);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().code).toBe('return_url_not_allowed');
    }
    const notWeb = await start(other, { successUrl: 'javascript:alert(1)' });
    expect(notWeb.statusCode).toBe(400);
    expect(await checkouts(other.user._id)).toEqual([]);
  });

  it('returns a caller from an origin not allowed, or none, to this site', async () => {
    const user = await registerUser(t.app);
    const { id, key } = await link(user, {}, 'https://evil.example');
    expect((await byLink(id, key)).json().cancelUrl).toBe('/cancel');
    expect((await byLink(id, key, PAY)).json()).toEqual({ redirect: '/success' });
  });

  it('opens only its own checkout, never with a wrong key, and stands for no other sign-in', async () => {
    const alice = await registerUser(t.app);
    const first = await link(alice);
    const second = await link(alice);
    for (const [id, key] of [
      [first.id, second.key],
      [first.id, `${first.key}x`],
      [first.id, ''],
      ['no-such-checkout', first.key],
    ] as const) {
      const res = await byLink(id, key);
      expect(res.statusCode, `${id} ${key}`).toBe(401);
      expect(res.json().code).toBe('checkout_link_invalid');
    }
    // The key is no session: every other route refuses it.
    const stats = await t.app.inject({
      url: '/api/user/stats',
      headers: { 'x-checkout-key': first.key },
    });
    expect(stats.statusCode).toBe(401);
    // Bob signed in holds Alice's link: it opens her checkout, paid for her.
    const bob = await registerUser(t.app);
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/sandbox/checkout/${first.id}/pay`,
      headers: { ...bearer(bob.token), 'x-checkout-key': first.key },
      payload: PAY,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const plans = async (user: RegisteredUser) =>
      (await t.app.inject({ url: '/api/user/stats', headers: bearer(user.token) })).json().plan
        .name;
    expect([await plans(alice), await plans(bob)]).toEqual(['Developer', 'Basic']);
  });
});
