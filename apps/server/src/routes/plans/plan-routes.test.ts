import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES, subscriptionStatusSchema } from '@refract/contracts';
import { adminToken, bearer, registerUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { subscribe } from '../../test/plans.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const planBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Team ${crypto.randomUUID().slice(0, 8)}`,
  monthlyFee: 9.99,
  annualFee: 95.9,
  features: ['Priority queue'],
  services: SERVICES.map((name) => ({ name, monthlyQuota: 25, annualQuota: 300 })),
  ...overrides,
});

describeEachDatabase('plans API', (kind) => {
  let t: TestApp;
  let admin: string;
  let user: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await adminToken(t.app);
    user = (await registerUser(t.app)).token;
  });
  afterAll(() => t.close());

  const request = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    token?: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: token ? bearer(token) : {} });

  describe('reading', () => {
    it('lists the seeded plans publicly, without the admin plan, fees in dollars', async () => {
      const res = await request('GET', '/api/subscriptions/plans');
      expect(res.statusCode).toBe(200);
      const plans = res.json();
      expect(plans.map((p: { name: string }) => p.name)).toEqual([
        'Basic',
        'Developer',
        'Business',
      ]);
      const developer = plans[1];
      expect(developer).toMatchObject({
        monthlyFee: 4.99,
        annualFee: 47.9,
        features: ['All services included'],
      });
      expect(developer.services).toHaveLength(16);
      expect(developer.services[0]).toMatchObject({ monthlyQuota: 10, annualQuota: 120 });
      expect(plans[2].services.every((s: { monthlyQuota: number }) => s.monthlyQuota === -1)).toBe(
        true,
      );
      expect(plans[0]).toMatchObject({ monthlyFee: 0, annualFee: 0 });
      expect(plans[0].services[0]).toMatchObject({ monthlyQuota: 3, annualQuota: 36 });
      // Batch sizes in decimal units, as systems show sizes: 250 MB, 1 GB, 5 GB.
      expect(plans.map((p: { batchMaxBytes: number }) => p.batchMaxBytes)).toEqual([
        250e6, 1e9, 5e9,
      ]);
    });

    it('shows one plan by id; the admin plan only to admins', async () => {
      const all = (await request('GET', '/api/subscriptions/plans', admin)).json();
      const hidden = all.find((p: { name: string }) => p.name === 'admin');
      expect(hidden).toBeDefined();
      expect((await request('GET', `/api/subscriptions/plans/${hidden._id}`)).statusCode).toBe(404);
      expect(
        (await request('GET', `/api/subscriptions/plans/${hidden._id}`, user)).statusCode,
      ).toBe(404);
      expect((await request('GET', `/api/subscriptions/plans/${all[1]._id}`)).json().name).toBe(
        'Developer',
      );
      expect((await request('GET', '/api/subscriptions/plans/nope')).json().code).toBe('not_found');
    });
  });

  describe('managing (admin only)', () => {
    it.each(['POST', 'PUT', 'DELETE'] as const)(
      '%s needs an admin: 401 anonymous, 403 user',
      async (method) => {
        const url =
          method === 'POST' ? '/api/subscriptions/plans' : '/api/subscriptions/plans/some-id';
        expect((await request(method, url, undefined, planBody())).statusCode).toBe(401);
        const res = await request(method, url, user, planBody());
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('forbidden');
      },
    );

    it('creates, updates and deletes a plan', async () => {
      const created = await request(
        'POST',
        '/api/subscriptions/plans',
        admin,
        planBody({ features: [] }),
      );
      expect(created.statusCode).toBe(201);
      const plan = created.json();
      expect(plan).toMatchObject({
        monthlyFee: 9.99,
        annualFee: 95.9,
        features: ['All services included'],
      });

      const updated = await request(
        'PUT',
        `/api/subscriptions/plans/${plan._id}`,
        admin,
        planBody({ name: plan.name, monthlyFee: 12 }),
      );
      expect(updated.statusCode).toBe(200);
      expect(updated.json().monthlyFee).toBe(12);

      expect(
        (await request('DELETE', `/api/subscriptions/plans/${plan._id}`, admin)).statusCode,
      ).toBe(204);
      expect((await request('GET', `/api/subscriptions/plans/${plan._id}`)).statusCode).toBe(404);
      expect(
        (await request('PUT', `/api/subscriptions/plans/${plan._id}`, admin, planBody()))
          .statusCode,
      ).toBe(404);
    });

    it.each([
      ['a missing name', { name: '' }],
      ['a negative fee', { monthlyFee: -1 }],
      ['a fee that is not a number', { annualFee: '10' }],
      [
        'a quota under -1',
        { services: SERVICES.map((name) => ({ name, monthlyQuota: -2, annualQuota: 1 })) },
      ],
      [
        'a fractional quota',
        { services: SERVICES.map((name) => ({ name, monthlyQuota: 1.5, annualQuota: 1 })) },
      ],
      [
        'a missing service',
        { services: SERVICES.slice(1).map((name) => ({ name, monthlyQuota: 1, annualQuota: 1 })) },
      ],
      [
        'an unknown service',
        {
          services: [...SERVICES, 'mine-bitcoin'].map((name) => ({
            name,
            monthlyQuota: 1,
            annualQuota: 1,
          })),
        },
      ],
    ])('refuses %s with validation_failed', async (_, overrides) => {
      const res = await request('POST', '/api/subscriptions/plans', admin, planBody(overrides));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    });

    it('refuses a duplicate name with 409 plan_name_taken', async () => {
      const res = await request(
        'POST',
        '/api/subscriptions/plans',
        admin,
        planBody({ name: 'Developer' }),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('plan_name_taken');
    });

    it('archives a plan with active subscribers instead of deleting it; refuses the Basic plan', async () => {
      const created = await request(
        'POST',
        '/api/subscriptions/plans',
        admin,
        planBody({ name: 'Kept' }),
      );
      const kept = created.json()._id as string;
      const subscriber = await registerUser(t.app);
      await t.database.db
        .insertInto('subscriptions')
        .values({
          id: crypto.randomUUID(),
          user_id: subscriber.user._id,
          plan_id: kept,
          billing_type: 'monthly',
          anchor_date: new Date().toISOString(),
          end_date: new Date(Date.now() + 86_400_000).toISOString(),
          cancel_at_period_end: 0,
          provider_subscription_id: null,
          last_event_at: null,
          scheduled_plan_id: null,
          scheduled_billing_type: null,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
      const archived = await request('DELETE', `/api/subscriptions/plans/${kept}`, admin);
      expect(archived.statusCode).toBe(200);
      expect(archived.json()).toMatchObject({ _id: kept, archived: true });
      // Gone from the public list and page, still there for the admin and the subscriber.
      const publicList = (await request('GET', '/api/subscriptions/plans')).json();
      expect(publicList.map((p: { _id: string }) => p._id)).not.toContain(kept);
      expect((await request('GET', `/api/subscriptions/plans/${kept}`)).statusCode).toBe(404);
      const adminList = (await request('GET', '/api/subscriptions/plans', admin)).json();
      expect(adminList.find((p: { _id: string }) => p._id === kept).archived).toBe(true);
      const mine = await request('GET', '/api/payments/subscription-status', subscriber.token);
      expect(mine.json().subscription.planDetails).toMatchObject({ _id: kept, archived: true });
      const bought = await request(
        'POST',
        '/api/subscriptions/create-checkout-session',
        subscriber.token,
        {
          planId: kept,
          billingType: 'monthly',
        },
      );
      expect(bought.json().code).toBe('plan_not_purchasable');
      const plans = (await request('GET', '/api/subscriptions/plans')).json();
      const basic = await request('DELETE', `/api/subscriptions/plans/${plans[0]._id}`, admin);
      expect(basic.json().code).toBe('plan_protected');
    });
  });
});

describeEachDatabase('GET /api/payments/subscription-status', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const status = (token?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/payments/subscription-status',
      headers: token ? bearer(token) : {},
    });

  it('describes the free plan without a subscription (billingType free, no end), and needs a token', async () => {
    const { token } = await registerUser(t.app);
    const free = subscriptionStatusSchema.parse((await status(token)).json()).subscription;
    expect(free).toMatchObject({
      planDetails: { name: 'Basic', monthlyFee: 0 },
      userDetails: { subscriptionEndDate: null },
      billingType: 'free',
      status: 'active',
      cancelAtPeriodEnd: false,
      granted: false,
      scheduledChange: null,
    });
    expect((await status()).statusCode).toBe(401);
  });

  it('says a plan an admin gave is granted (it is not renewed), and a bought one is not', async () => {
    const admin = await adminToken(t.app);
    const user = await registerUser(t.app);
    const plans = (await t.app.inject({ url: '/api/subscriptions/plans' })).json();
    const developer = plans.find((p: { name: string }) => p.name === 'Developer')._id;
    const grant = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.user._id}/grant`,
      headers: bearer(admin),
      payload: { planId: developer, months: 1 },
    });
    expect(grant.statusCode, grant.body).toBe(200);
    expect((await status(user.token)).json().subscription).toMatchObject({
      planDetails: { name: 'Developer' },
      billingType: 'monthly',
      granted: true,
    });
    const bought = await registerUser(t.app);
    await subscribe(t.database.db, bought.user._id, 'developer');
    expect((await status(bought.token)).json().subscription.granted).toBe(false);
  });

  it('shows an active and a lapsed subscription with the plan and end date', async () => {
    const active = await registerUser(t.app);
    const end = new Date(Date.now() + 10 * 86_400_000);
    await subscribe(t.database.db, active.user._id, 'developer', { billingType: 'annual', end });
    expect((await status(active.token)).json().subscription).toMatchObject({
      planDetails: { name: 'Developer', monthlyFee: 4.99 },
      userDetails: { subscriptionEndDate: end.toISOString() },
      billingType: 'annual',
      status: 'active',
    });
    const lapsed = await registerUser(t.app);
    await subscribe(t.database.db, lapsed.user._id, 'business', {
      end: new Date(Date.now() - 1000),
    });
    expect((await status(lapsed.token)).json().subscription).toMatchObject({
      status: 'expired',
      planDetails: { name: 'Business' },
    });
  });
});
