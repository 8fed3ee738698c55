import { afterAll, beforeAll, expect, it } from 'vitest';
import { SERVICES } from '@refract/contracts';
import { adminToken, bearer, registerUser, type RegisteredUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const PAY = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Ada' };

describeEachDatabase('downgrades wait for the end of the paid period', (kind) => {
  let t: TestApp;
  let admin: string;
  let plans: { _id: string; name: string }[];
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await adminToken(t.app);
    plans = (
      await t.app.inject({ url: '/api/subscriptions/plans', headers: bearer(admin) })
    ).json();
  });
  afterAll(() => t.close());

  const plan = (name: string) => plans.find((p) => p.name === name)!._id;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
  const choose = (user: RegisteredUser, planId: string, billingType = 'monthly') =>
    call('POST', '/api/subscriptions/create-checkout-session', user.token, { planId, billingType });
  async function buy(user: RegisteredUser, name: string, billingType = 'monthly') {
    const { url } = (await choose(user, plan(name), billingType)).json();
    const id = new URL(url).pathname.split('/').pop();
    const paid = await call('POST', `/api/sandbox/checkout/${id}/pay`, user.token, PAY);
    expect(paid.json()).toEqual({ redirect: '/success' });
  }
  const status = async (user: RegisteredUser) =>
    (await call('GET', '/api/payments/subscription-status', user.token)).json().subscription;
  const stats = async (user: RegisteredUser) => {
    const body = (await call('GET', '/api/user/stats', user.token)).json();
    const rotate = body.usage.find((u: { service: string }) => u.service === 'modify-rotate');
    return { plan: body.plan.name as string, quota: rotate.quota as number };
  };
  /** The paid period ends: as if the clock had passed the subscription's end date. */
  const endPeriod = (user: RegisteredUser) =>
    t.database.db
      .updateTable('subscriptions')
      .set({ end_date: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.user._id)
      .execute();

  it('schedules Basic at the end of a paid month, keeps Developer until then, then applies it', async () => {
    const user = await registerUser(t.app);
    await buy(user, 'Developer');
    const end = (await status(user)).userDetails.subscriptionEndDate;
    const res = await choose(user, plan('Basic'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      url: expect.stringMatching(/^http:.*\/dashboard$/),
      scheduledFor: end,
    });
    expect(await status(user)).toMatchObject({
      status: 'active',
      planDetails: { name: 'Developer' },
      cancelAtPeriodEnd: true,
      scheduledChange: { plan: { name: 'Basic' }, billingType: 'monthly' },
    });
    expect(await stats(user)).toEqual({ plan: 'Developer', quota: 10 });
    await endPeriod(user);
    expect(await stats(user)).toEqual({ plan: 'Basic', quota: 3 });
    expect(await status(user)).toMatchObject({
      billingType: 'free',
      planDetails: { name: 'Basic' },
    });
  });

  it('can be undone until the period ends, and then renews as it was', async () => {
    const user = await registerUser(t.app);
    await buy(user, 'Developer');
    await choose(user, plan('Basic'));
    const undone = await call('POST', '/api/payments/undo-scheduled-change', user.token);
    expect(undone.statusCode).toBe(200);
    expect(undone.json().subscription).toMatchObject({
      planDetails: { name: 'Developer' },
      cancelAtPeriodEnd: false,
      scheduledChange: null,
    });
    const again = await call('POST', '/api/payments/undo-scheduled-change', user.token);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('no_scheduled_change');
    expect((await call('POST', '/api/payments/undo-scheduled-change')).statusCode).toBe(401);
    // Nothing scheduled: the end of the period changes the plan to nothing else.
    await endPeriod(user);
    expect((await status(user)).planDetails.name).toBe('Developer');
  });

  it('schedules a cheaper paid plan: at the end it is the plan to renew, with Basic quotas until paid', async () => {
    const user = await registerUser(t.app);
    await buy(user, 'Business');
    const res = await choose(user, plan('Developer'), 'annual');
    expect(res.json().scheduledFor).toBeDefined();
    expect((await status(user)).scheduledChange).toMatchObject({
      plan: { name: 'Developer' },
      billingType: 'annual',
    });
    await endPeriod(user);
    expect(await status(user)).toMatchObject({
      status: 'expired',
      planDetails: { name: 'Developer' },
      billingType: 'annual',
      scheduledChange: null,
    });
    expect(await stats(user)).toEqual({ plan: 'Basic', quota: 3 });
    await buy(user, 'Developer', 'annual');
    expect(await stats(user)).toEqual({ plan: 'Developer', quota: 120 });
  });

  it('upgrades at once: a dearer plan, or monthly to annual, goes to checkout and replaces the plan', async () => {
    const user = await registerUser(t.app);
    await buy(user, 'Developer');
    await choose(user, plan('Basic'));
    const upgrade = await choose(user, plan('Business'));
    expect(upgrade.json().url).toMatch(/^http:.*\/sandbox\/checkout\//);
    await buy(user, 'Business');
    // The payment replaced the plan and dropped the scheduled downgrade.
    expect(await status(user)).toMatchObject({
      planDetails: { name: 'Business' },
      scheduledChange: null,
      cancelAtPeriodEnd: false,
    });
    const toAnnual = await choose(user, plan('Business'), 'annual');
    expect(toAnnual.json().url).toMatch(/\/sandbox\/checkout\//);
    expect(toAnnual.json().scheduledFor).toBeUndefined();
  });

  it('schedules annual to monthly of the same plan, and a free plan other than Basic with no end', async () => {
    const user = await registerUser(t.app);
    await buy(user, 'Developer', 'annual');
    expect((await choose(user, plan('Developer'), 'monthly')).json().scheduledFor).toBeDefined();
    expect((await status(user)).scheduledChange.billingType).toBe('monthly');

    const created = await call('POST', '/api/subscriptions/plans', admin, {
      name: `Free ${crypto.randomUUID().slice(0, 6)}`,
      monthlyFee: 0,
      annualFee: 0,
      features: [],
      services: SERVICES.map((name) => ({ name, monthlyQuota: 5, annualQuota: 60 })),
    });
    const free = created.json();
    await choose(user, free._id);
    const before = await status(user);
    expect(before.scheduledChange.plan.name).toBe(free.name);
    const end = before.userDetails.subscriptionEndDate;
    await endPeriod(user);
    // Two readers at once see the change due; it is applied once.
    const [a, b] = await Promise.all([stats(user), status(user)]);
    expect(a).toEqual({ plan: free.name, quota: 5 });
    expect(b).toMatchObject({ status: 'active', planDetails: { name: free.name } });
    expect(b.userDetails.subscriptionEndDate).toBe('9999-12-31T00:00:00.000Z');
    expect(end).not.toBe(b.userDetails.subscriptionEndDate);
  });

  it('archives a plan that has payments instead of answering 500; its history keeps its name', async () => {
    const created = await call('POST', '/api/subscriptions/plans', admin, {
      name: `Old ${crypto.randomUUID().slice(0, 6)}`,
      monthlyFee: 3,
      annualFee: 30,
      features: [],
      services: SERVICES.map((name) => ({ name, monthlyQuota: 5, annualQuota: 60 })),
    });
    const old = created.json();
    plans.push(old);
    const user = await registerUser(t.app);
    await buy(user, old.name);
    await endPeriod(user);
    const res = await call('DELETE', `/api/subscriptions/plans/${old._id}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ archived: true });
    const history = (await call('GET', '/api/payments', user.token)).json();
    expect(history[0].planId.name).toBe(old.name);
    // An unused plan is still deleted outright.
    const unused = await call('POST', '/api/subscriptions/plans', admin, {
      ...old,
      _id: undefined,
      archived: undefined,
      name: `Unused ${crypto.randomUUID().slice(0, 6)}`,
    });
    expect(unused.statusCode, unused.body).toBe(201);
    const deleted = await call('DELETE', `/api/subscriptions/plans/${unused.json()._id}`, admin);
    expect(deleted.statusCode).toBe(204);
    // The hidden admin plan is never deleted.
    const adminPlan = await call('DELETE', `/api/subscriptions/plans/${plan('admin')}`, admin);
    expect(adminPlan.json().code).toBe('plan_protected');
  });
});
