import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminToken, bearer, freshAddress, registerUser } from '../../test/accounts.js';
import { subscriptionsRepository } from '../../db/repositories/subscriptions-repository.js';
import { describeEachDatabase } from '../../test/databases.js';
import { subscribe } from '../../test/plans.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachDatabase('admin user actions', (kind) => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  let logs: string[];
  beforeAll(async () => {
    logs = [];
    t = await createTestApp(kind, {
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (line: string) => void logs.push(line) },
    });
    admin = await adminToken(t.app);
    adminId = (await t.app.inject({ url: '/api/auth/me', headers: bearer(admin) })).json()._id;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: token ? bearer(token) : {} });
  const row = async (email: string) =>
    (await call('GET', `/api/admin/users?search=${encodeURIComponent(email)}`, admin)).json()[0];

  it('suspends: no sign-in, existing sessions and API keys stop; reactivation lets them sign in again', async () => {
    const user = await registerUser(t.app);
    const key = (await call('POST', '/api/keys', user.token, { name: 'ci' })).json().key;
    expect(
      (await t.app.inject({ url: '/api/user/stats', headers: { 'x-api-key': key } })).statusCode,
    ).toBe(200);

    const res = await call('PATCH', `/api/admin/users/${user.user._id}`, admin, {
      suspended: true,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(await row(user.email)).toMatchObject({ suspended: true });
    const session = await call('GET', '/api/user/stats', user.token);
    expect(session.statusCode).toBe(403);
    expect(session.json().code).toBe('account_suspended');
    const byKey = await t.app.inject({ url: '/api/user/stats', headers: { 'x-api-key': key } });
    expect(byKey.json().code).toBe('account_suspended');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
      remoteAddress: freshAddress(),
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe('account_suspended');

    await call('PATCH', `/api/admin/users/${user.user._id}`, admin, { suspended: false });
    expect(await row(user.email)).toMatchObject({ suspended: false });
    // The old session stays ended; a new sign-in works.
    expect((await call('GET', '/api/user/stats', user.token)).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: user.password },
      remoteAddress: freshAddress(),
    });
    expect(again.statusCode).toBe(200);
    // Logged with ids, never a credential.
    const line = logs.find((l) => l.includes('admin changed a user') && l.includes(user.user._id));
    expect(line).toBeDefined();
    expect(line).not.toContain(user.password);
    expect(line).not.toContain(admin);
  });

  it('changes a role; refuses to demote or suspend the last admin, or an admin suspending themselves', async () => {
    const user = await registerUser(t.app);
    expect(
      (await call('PATCH', `/api/admin/users/${user.user._id}`, admin, { role: 'admin' }))
        .statusCode,
    ).toBe(204);
    expect(await row(user.email)).toMatchObject({ role: 'admin' });
    const self = await call('PATCH', `/api/admin/users/${adminId}`, admin, { suspended: true });
    expect(self.statusCode).toBe(409);
    expect(self.json().code).toBe('last_admin');
    await call('PATCH', `/api/admin/users/${user.user._id}`, admin, { role: 'user' });
    expect(await row(user.email)).toMatchObject({ role: 'user' });
    const last = await call('PATCH', `/api/admin/users/${adminId}`, admin, { role: 'user' });
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('last_admin');
  });

  it('grants a plan for some months as a zero-amount payment in the history', async () => {
    const user = await registerUser(t.app);
    const plans = (await call('GET', '/api/subscriptions/plans')).json();
    const developer = plans.find((p: { name: string }) => p.name === 'Developer');
    const res = await call('POST', `/api/admin/users/${user.user._id}/grant`, admin, {
      planId: developer._id,
      months: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [payment] = (await call('GET', '/api/payments', user.token)).json();
    expect(payment).toMatchObject({ amount: 0, planId: { name: 'Developer' } });
    const days =
      (Date.parse(payment.billingCycle.endDate) - Date.parse(payment.billingCycle.startDate)) /
      86_400_000;
    expect(days).toBeGreaterThanOrEqual(89);
    expect(days).toBeLessThanOrEqual(92);
    const stats = (await call('GET', '/api/user/stats', user.token)).json();
    expect(stats.plan.name).toBe('Developer');
    expect(logs.some((l) => l.includes('admin granted a plan'))).toBe(true);

    // A gift does not renew, so there is nothing to cancel: refused, and the plan is as it was.
    const cancel = await call('POST', '/api/payments/cancel-subscription', user.token);
    expect(cancel.statusCode, cancel.body).toBe(409);
    expect(cancel.json().code).toBe('plan_granted');
    const status = (await call('GET', '/api/payments/subscription-status', user.token)).json();
    expect(status.subscription).toMatchObject({ granted: true, cancelAtPeriodEnd: false });
  });

  it('refuses to grant a plan over one the user pays for that renews, and grants once it is cancelled', async () => {
    const user = await registerUser(t.app);
    const plans = (await call('GET', '/api/subscriptions/plans')).json();
    const business = plans.find((p: { name: string }) => p.name === 'Business');
    // A Developer plan paid through Stripe, renewing next month.
    await subscribe(t.database.db, user.user._id, 'developer', {
      providerSubscriptionId: 'sub_renewing',
    });
    const grant = () =>
      call('POST', `/api/admin/users/${user.user._id}/grant`, admin, {
        planId: business._id,
        months: 2,
      });
    const refused = await grant();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('subscription_renews');
    expect((await call('GET', '/api/payments', user.token)).json()).toEqual([]);

    await subscriptionsRepository(t.database.db).setCancelAtPeriodEnd(user.user._id, true);
    expect((await grant()).statusCode).toBe(200);
    expect((await call('GET', '/api/user/stats', user.token)).json().plan.name).toBe('Business');
  });

  it('refuses bad input and non-admins', async () => {
    const user = await registerUser(t.app);
    const id = user.user._id;
    const cases: [string, string, object, number, string][] = [
      ['PATCH', `/api/admin/users/${id}`, {}, 400, 'validation_failed'],
      ['PATCH', `/api/admin/users/${id}`, { role: 'owner' }, 400, 'validation_failed'],
      ['PATCH', `/api/admin/users/${id}`, { banned: true }, 400, 'unknown_field'],
      ['PATCH', '/api/admin/users/nope', { suspended: true }, 404, 'not_found'],
      ['POST', `/api/admin/users/${id}/grant`, { planId: 'nope', months: 1 }, 404, 'not_found'],
      [
        'POST',
        `/api/admin/users/${id}/grant`,
        { planId: 'x', months: 0 },
        400,
        'validation_failed',
      ],
      [
        'POST',
        `/api/admin/users/${id}/grant`,
        { planId: 'x', months: 1.5 },
        400,
        'validation_failed',
      ],
    ];
    for (const [method, url, body, status, code] of cases) {
      const res = await call(method as 'PATCH', url, admin, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json().code).toBe(code);
    }
    const plans = (await call('GET', '/api/subscriptions/plans', admin)).json();
    const adminPlan = plans.find((p: { name: string }) => p.name === 'admin');
    const hidden = await call('POST', `/api/admin/users/${id}/grant`, admin, {
      planId: adminPlan._id,
      months: 1,
    });
    expect(hidden.statusCode).toBe(404);
    const byUser = await call('PATCH', `/api/admin/users/${id}`, user.token, { role: 'admin' });
    expect(byUser.statusCode).toBe(403);
    expect(
      (await call('PATCH', `/api/admin/users/${id}`, undefined, { role: 'admin' })).statusCode,
    ).toBe(401);
    expect(await row(user.email)).toMatchObject({ role: 'user' });
  });
});
