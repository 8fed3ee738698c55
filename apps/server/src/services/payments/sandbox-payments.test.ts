import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES } from '@refract/contracts';
import { adminToken, bearer, registerUser, type RegisteredUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { spend } from '../../test/plans.js';

/** A checkout's id, from its link. */
const idOf = (url: string) => new URL(url).pathname.split('/').pop()!;

const PAY = {
  cardNumber: '4242 4242 4242 4242',
  expiry: '12/39',
  cvc: '123',
  name: 'Ada Lovelace',
};

describeEachDatabase('sandbox payments', (kind) => {
  let t: TestApp;
  let plans: { _id: string; name: string }[];
  beforeAll(async () => {
    t = await createTestApp(kind);
    const admin = await adminToken(t.app);
    plans = (
      await t.app.inject({ url: '/api/subscriptions/plans', headers: bearer(admin) })
    ).json();
  });
  afterAll(() => t.close());

  const plan = (name: string) => plans.find((p) => p.name === name)!._id;

  function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
    return t.app.inject({ method, url, headers: bearer(token), payload });
  }

  async function checkout(user: RegisteredUser, name: string, billingType = 'monthly') {
    const res = await call('POST', '/api/subscriptions/create-checkout-session', user.token, {
      planId: plan(name),
      billingType,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().url as string;
  }

  async function buy(user: RegisteredUser, name: string, billingType = 'monthly', card = PAY) {
    const id = idOf(await checkout(user, name, billingType));
    return call('POST', `/api/sandbox/checkout/${id}/pay`, user.token, card);
  }

  const status = async (user: RegisteredUser) =>
    (await call('GET', '/api/payments/subscription-status', user.token)).json().subscription;
  const payments = async (user: RegisteredUser) =>
    (await call('GET', '/api/payments', user.token)).json() as {
      amount: number;
      billingType: string;
      billingCycle: { startDate: string; endDate: string };
      planId: { name: string };
      paymentMethod: { brand: string; last4: string };
    }[];
  const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

  it('pays a monthly plan with the test card: Developer for a month, quota 10', async () => {
    const user = await registerUser(t.app);
    const url = await checkout(user, 'Developer');
    // Absolute, from PUBLIC_URL: API clients on another origin can follow it.
    expect(url).toMatch(/^http:\/\/localhost:\d+\/sandbox\/checkout\/[\w-]+#key=[\w-]{32}$/);
    const id = idOf(url);
    const view = await call('GET', `/api/sandbox/checkout/${id}`, user.token);
    expect(view.json()).toMatchObject({
      amount: 499,
      billingType: 'monthly',
      plan: { name: 'Developer' },
      status: 'open',
    });

    const paid = await call('POST', `/api/sandbox/checkout/${id}/pay`, user.token, PAY);
    expect(paid.json()).toEqual({ redirect: '/success' });
    const stats = (await call('GET', '/api/user/stats', user.token)).json();
    expect(stats.plan.name).toBe('Developer');
    expect(stats.usage.find((u: { service: string }) => u.service === 'modify-rotate').quota).toBe(
      10,
    );
    const sub = await status(user);
    expect(sub).toMatchObject({
      status: 'active',
      billingType: 'monthly',
      cancelAtPeriodEnd: false,
    });
    const [payment] = await payments(user);
    expect(payment).toMatchObject({
      amount: 499,
      billingType: 'monthly',
      planId: { name: 'Developer' },
      paymentMethod: { brand: 'visa', last4: '4242' },
    });
    expect(
      days(payment!.billingCycle.startDate, payment!.billingCycle.endDate),
    ).toBeGreaterThanOrEqual(28);
  });

  it('pays an annual plan: a year, the annual price and quotas', async () => {
    const user = await registerUser(t.app);
    expect((await buy(user, 'Developer', 'annual')).json()).toEqual({ redirect: '/success' });
    const sub = await status(user);
    expect(days(new Date().toISOString(), sub.userDetails.subscriptionEndDate)).toBeGreaterThan(
      364,
    );
    const stats = (await call('GET', '/api/user/stats', user.token)).json();
    expect(stats.usage[0].quota).toBe(120);
    expect((await payments(user))[0]!.amount).toBe(4790);
  });

  it('extends an active subscription by a month from its end on a second purchase', async () => {
    const user = await registerUser(t.app);
    await buy(user, 'Developer');
    const firstEnd = (await status(user)).userDetails.subscriptionEndDate;
    await buy(user, 'Developer');
    const secondEnd = (await status(user)).userDetails.subscriptionEndDate;
    expect(days(firstEnd, secondEnd)).toBeGreaterThanOrEqual(28);
    expect(await payments(user)).toHaveLength(2);
  });

  it('extends by one month per payment when five checkouts are paid at once', async () => {
    const user = await registerUser(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(idOf(await checkout(user, 'Developer')));
    const results = await Promise.all(
      ids.map((id) => call('POST', `/api/sandbox/checkout/${id}/pay`, user.token, PAY)),
    );
    expect(results.map((r) => r.json())).toEqual(ids.map(() => ({ redirect: '/success' })));
    const cycles = (await payments(user))
      .map((p) => p.billingCycle)
      .sort((a, b) => a.startDate.localeCompare(b.startDate));
    expect(cycles).toHaveLength(5);
    // Each payment's month starts where the one before ended: none extends from a stale end.
    for (let i = 1; i < cycles.length; i += 1)
      expect(cycles[i]!.startDate).toBe(cycles[i - 1]!.endDate);
    const end = (await status(user)).userDetails.subscriptionEndDate;
    expect(end).toBe(cycles[4]!.endDate);
    expect(days(new Date().toISOString(), end)).toBeGreaterThan(5 * 28 - 1);
  });

  it('declines the decline card with 402 card_declined: nothing recorded, still Basic, the checkout stays open for another card', async () => {
    const user = await registerUser(t.app);
    const id = idOf(await checkout(user, 'Business'));
    const pay = (card: typeof PAY) =>
      call('POST', `/api/sandbox/checkout/${id}/pay`, user.token, card);
    const res = await pay({ ...PAY, cardNumber: '4000 0000 0000 0002' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      code: 'card_declined',
      error: expect.stringMatching(/declined/),
    });
    expect(await payments(user)).toEqual([]);
    expect(await status(user)).toMatchObject({
      billingType: 'free',
      planDetails: { name: 'Basic' },
    });
    expect((await pay(PAY)).json()).toEqual({ redirect: '/success' });
    expect(await payments(user)).toHaveLength(1);
  });

  it('a declined card changes nothing', async () => {
    const user = await registerUser(t.app);
    await buy(user, 'Business', 'monthly', { ...PAY, cardNumber: '4000 0000 0000 0002' });
    expect(await payments(user)).toEqual([]);
    expect(await status(user)).toMatchObject({
      billingType: 'free',
      planDetails: { name: 'Basic' },
    });
  });

  it.each([
    ['another card number', { cardNumber: '4111 1111 1111 1111' }],
    ['an expired card', { expiry: '01/20' }],
    ['a bad security code', { cvc: '12' }],
  ])('refuses %s as invalid_card, and the checkout stays open', async (_name, change) => {
    const user = await registerUser(t.app);
    const id = idOf(await checkout(user, 'Developer'));
    const res = await call('POST', `/api/sandbox/checkout/${id}/pay`, user.token, {
      ...PAY,
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_card');
    expect((await call('POST', `/api/sandbox/checkout/${id}/pay`, user.token, PAY)).json()).toEqual(
      { redirect: '/success' },
    );
  });

  it('takes one payment per checkout, however often it is paid', async () => {
    const user = await registerUser(t.app);
    const id = idOf(await checkout(user, 'Developer'));
    const results = await Promise.all(
      [1, 2, 3].map(() => call('POST', `/api/sandbox/checkout/${id}/pay`, user.token, PAY)),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('checkout_closed');
    expect(await payments(user)).toHaveLength(1);
  });

  it("hides another user's checkout and payments", async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const id = idOf(await checkout(alice, 'Developer'));
    expect((await call('GET', `/api/sandbox/checkout/${id}`, bob.token)).statusCode).toBe(404);
    expect((await call('POST', `/api/sandbox/checkout/${id}/pay`, bob.token, PAY)).statusCode).toBe(
      404,
    );
    await call('POST', `/api/sandbox/checkout/${id}/pay`, alice.token, PAY);
    expect(await payments(bob)).toEqual([]);
    expect(await payments(alice)).toHaveLength(1);
  });

  it('switches a user without a paid plan to a free plan at once, and refuses unknown and hidden plans', async () => {
    const user = await registerUser(t.app);
    const free = await call('POST', '/api/subscriptions/create-checkout-session', user.token, {
      planId: plan('Basic'),
      billingType: 'monthly',
    });
    expect(free.json().url).toMatch(/^http:\/\/[^/]+\/dashboard$/);
    expect(await status(user)).toMatchObject({
      billingType: 'free',
      planDetails: { name: 'Basic' },
    });
    const unknown = await call('POST', '/api/subscriptions/create-checkout-session', user.token, {
      planId: 'nope',
      billingType: 'monthly',
    });
    expect(unknown.statusCode).toBe(404);
    const hidden = await call('POST', '/api/subscriptions/create-checkout-session', user.token, {
      planId: plan('admin'),
      billingType: 'monthly',
    });
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().code).toBe('plan_not_purchasable');
    const badCycle = await call('POST', '/api/subscriptions/create-checkout-session', user.token, {
      planId: plan('Developer'),
      billingType: 'weekly',
    });
    expect(badCycle.statusCode).toBe(400);
  });

  it('keeps the period and its uses when a free plan is chosen again: 2 uses a month, not 8', async () => {
    const admin = await adminToken(t.app);
    const created = await call('POST', '/api/subscriptions/plans', admin, {
      name: `Free two ${Date.now()}`,
      monthlyFee: 0,
      annualFee: 0,
      services: SERVICES.map((name) => ({ name, monthlyQuota: 2, annualQuota: 24 })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const freeTwo: string = created.json()._id;
    const user = await registerUser(t.app);
    const choose = async (planId: string, billingType = 'monthly') => {
      const res = await call('POST', '/api/subscriptions/create-checkout-session', user.token, {
        planId,
        billingType,
      });
      expect(res.json().url).toMatch(/\/dashboard$/);
    };
    const useAll = async () => {
      let uses = 0;
      for (let i = 0; i < 4; i += 1) {
        const refused = await spend(t.database.db, user.user._id, 'modify-rotate').then(
          () => undefined,
          (err: { code?: string }) => err.code,
        );
        if (refused === undefined) uses += 1;
        else expect(refused).toBe('quota_exceeded');
      }
      return uses;
    };
    let uses = 0;
    // The annual cycle too: a free plan's cycle must not be a way to a fresh allowance.
    for (const billingType of ['monthly', 'monthly', 'annual', 'monthly']) {
      await choose(freeTwo, billingType);
      uses += await useAll();
    }
    expect(uses).toBe(2);
    // Basic and back counts the same month: the larger quota (Basic's 3) in all.
    for (const planId of [plan('Basic'), freeTwo, plan('Basic'), freeTwo]) {
      await choose(planId);
      uses += await useAll();
    }
    expect(uses).toBe(3);
  });

  it('refuses the cycle a paid plan leaves at 0 with 422 billing_cycle_unavailable: no plan given, nothing scheduled', async () => {
    const admin = await adminToken(t.app);
    const create = async (name: string, monthlyFee: number, annualFee: number) => {
      const res = await call('POST', '/api/subscriptions/plans', admin, {
        name: `${name} ${Date.now()}`,
        monthlyFee,
        annualFee,
        services: SERVICES.map((service) => ({ name: service, monthlyQuota: 5, annualQuota: 60 })),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json()._id as string;
    };
    const monthlyOnly = await create('Monthly only', 10, 0);
    const annualOnly = await create('Annual only', 0, 100);
    const choose = (user: RegisteredUser, planId: string, billingType: string) =>
      call('POST', '/api/subscriptions/create-checkout-session', user.token, {
        planId,
        billingType,
      });

    const user = await registerUser(t.app);
    for (const [planId, billingType] of [
      [monthlyOnly, 'annual'],
      [annualOnly, 'monthly'],
    ] as const) {
      const res = await choose(user, planId, billingType);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'billing_cycle_unavailable',
        error: expect.stringMatching(new RegExp(`${billingType}`, 'i')),
      });
    }
    // Still on Basic: no free period, no payment, no open checkout to pay.
    expect(await status(user)).toMatchObject({
      billingType: 'free',
      planDetails: { name: 'Basic' },
    });
    expect(await payments(user)).toEqual([]);

    // A subscriber to a dearer plan is refused the same way, not scheduled onto it.
    const subscriber = await registerUser(t.app);
    await buy(subscriber, 'Business');
    const refused = await choose(subscriber, monthlyOnly, 'annual');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().code).toBe('billing_cycle_unavailable');
    expect(await status(subscriber)).toMatchObject({
      planDetails: { name: 'Business' },
      scheduledChange: null,
      cancelAtPeriodEnd: false,
    });

    // The cycles with a price are sold as usual.
    const monthly = await choose(user, monthlyOnly, 'monthly');
    expect(monthly.statusCode, monthly.body).toBe(200);
    expect(monthly.json().url).toMatch(/\/sandbox\/checkout\/[\w-]+#key=/);
    const annual = await choose(user, annualOnly, 'annual');
    expect(annual.statusCode, annual.body).toBe(200);
    expect(annual.json().url).toMatch(/\/sandbox\/checkout\/[\w-]+#key=/);
    // Sold annually only at $100 (about $8.33 a month), it is dearer than Developer's $4.99 a
    // month: paid now, not scheduled as a downgrade because its monthly fee reads 0.
    const developer = await registerUser(t.app);
    await buy(developer, 'Developer');
    const upgrade = await choose(developer, annualOnly, 'annual');
    expect(upgrade.statusCode, upgrade.body).toBe(200);
    expect(upgrade.json().scheduledFor).toBeUndefined();
    expect(upgrade.json().url).toMatch(/\/sandbox\/checkout\/[\w-]+#key=/);
  });

  it('cancels at the end of the period', async () => {
    const user = await registerUser(t.app);
    const none = await call('POST', '/api/payments/cancel-subscription', user.token);
    expect(none.statusCode).toBe(404);
    expect(none.json().code).toBe('no_subscription');
    await buy(user, 'Developer');
    const res = await call('POST', '/api/payments/cancel-subscription', user.token);
    expect(res.json().subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
  });

  describe('admin payments', () => {
    it('filters by email, plan and dates, with the total of what matched, and only for admins', async () => {
      const admin = await adminToken(t.app);
      const carol = await registerUser(t.app, { name: 'Carol Admin-Filter' });
      const dave = await registerUser(t.app);
      await buy(carol, 'Developer');
      await buy(carol, 'Business', 'annual');
      await buy(dave, 'Developer');
      const list = async (query: string) =>
        (await call('GET', `/api/admin/payments?${query}`, admin)).json();

      const byEmail = await list(`email=${encodeURIComponent(carol.email)}`);
      expect(byEmail.payments).toHaveLength(2);
      expect(byEmail.total).toBe(499 + 6710);
      expect(byEmail.payments[0].userId).toMatchObject({
        name: 'Carol Admin-Filter',
        email: carol.email,
      });

      const byPlan = await list(`email=${encodeURIComponent(carol.email)}&plan=Developer`);
      expect(byPlan).toMatchObject({ total: 499 });
      const today = new Date().toISOString().slice(0, 10);
      expect(
        (await list(`email=${encodeURIComponent(dave.email)}&from=${today}&to=${today}`)).total,
      ).toBe(499);
      expect(
        (await list(`email=${encodeURIComponent(dave.email)}&to=2000-01-01`)).payments,
      ).toEqual([]);
      // A wildcard typed into the filter matches itself only.
      expect((await list('email=%25')).payments).toEqual([]);

      // The admin dashboard's revenue is this month's payments, in dollars.
      const all = await list('');
      const stats = (await call('GET', '/api/admin/dashboard/stats', admin)).json();
      expect(stats.monthlyRevenue).toBeCloseTo(all.total / 100, 2);
      expect(all.total).toBeGreaterThanOrEqual(499 + 6710 + 499);

      expect((await call('GET', '/api/admin/payments', carol.token)).statusCode).toBe(403);
      expect((await call('GET', '/api/admin/payments?from=yesterday', admin)).statusCode).toBe(400);
    });
  });

  it('says payments are in test mode', async () => {
    const res = await t.app.inject({ url: '/api/payments/mode' });
    expect(res.json()).toEqual({ provider: 'sandbox', testMode: true });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/subscriptions/webhook', payload: {} }))
        .statusCode,
    ).toBe(404);
  });
});
