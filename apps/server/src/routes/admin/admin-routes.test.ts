import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminStatsSchema, adminUsersResponseSchema } from '@refract/contracts';
import { adminToken, bearer, registerUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { spend, subscribe } from '../../test/plans.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachDatabase('admin API', (kind) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await adminToken(t.app);
  });
  afterAll(() => t.close());

  const get = (url: string, token = admin) =>
    t.app.inject({ method: 'GET', url, headers: bearer(token) });

  it('counts users, subscribers per plan and feature usage', async () => {
    const dev = await registerUser(t.app);
    const biz = await registerUser(t.app);
    await subscribe(t.database.db, dev.user._id, 'developer');
    await subscribe(t.database.db, biz.user._id, 'business');
    await spend(t.database.db, dev.user._id, 'modify-crop', 2);
    const stats = adminStatsSchema.parse((await get('/api/admin/dashboard/stats')).json());
    expect(stats.userStats.total).toBeGreaterThanOrEqual(3);
    expect(stats.userStats).toMatchObject({ developerPlan: 1, businessPlan: 1 });
    expect(stats.activeSubscriptions).toBe(2);
    expect(stats.featureUsage['modify-crop']).toBe(2);
    expect(stats.paymentsSandboxInProduction).toBe(false);
  });

  it('lists each user with isAdmin and currentPlan, as the product names them, beside role and subscription', async () => {
    const marker = crypto.randomUUID().slice(0, 8);
    const dev = await registerUser(t.app, { name: `Plan ${marker} developer` });
    await subscribe(t.database.db, dev.user._id, 'developer');
    await registerUser(t.app, { name: `Plan ${marker} basic` });
    const found = adminUsersResponseSchema.parse(
      (await get(`/api/admin/users?search=${marker}`)).json(),
    );
    expect(found.find((u) => u.name.endsWith('developer'))).toMatchObject({
      isAdmin: false,
      currentPlan: { name: 'Developer' },
      role: 'user',
      subscription: { plan: 'Developer' },
    });
    expect(found.find((u) => u.name.endsWith('basic'))).toMatchObject({
      isAdmin: false,
      currentPlan: { name: 'Basic' },
      subscription: null,
    });
    const admins = adminUsersResponseSchema.parse(
      (await get('/api/admin/users?search=admin@example.com')).json(),
    );
    expect(admins[0]).toMatchObject({
      isAdmin: true,
      currentPlan: { name: 'admin' },
      role: 'admin',
    });
  });

  it('lists users with role, subscription and country (null when absent), searchable; paged by query with the total and next page in headers', async () => {
    const marker = crypto.randomUUID().slice(0, 8);
    for (let i = 0; i < 3; i += 1) await registerUser(t.app, { name: `Needle ${marker} ${i}` });
    await registerUser(t.app, { email: `${marker}_under@example.com`, country: 'JP' });
    const res = await get(`/api/admin/users?search=${marker.toUpperCase()}`);
    // A list: the earlier client calls .filter on it.
    const found = adminUsersResponseSchema.parse(res.json());
    expect(Array.isArray(res.json())).toBe(true);
    expect(res.headers['x-total-count']).toBe('4');
    expect(res.headers.link).toBeUndefined();
    expect(found.find((u) => u.email.startsWith(marker))).toMatchObject({
      country: 'JP',
      role: 'user',
      suspended: false,
      subscription: null,
    });
    expect(found.filter((u) => u.name.startsWith('Needle')).every((u) => u.country === null)).toBe(
      true,
    );

    const first = await get(`/api/admin/users?search=${marker}&pageSize=3`);
    expect(first.json()).toHaveLength(3);
    expect(first.headers['x-total-count']).toBe('4');
    const next = /^<([^>]+)>; rel="next"$/.exec(String(first.headers.link))?.[1];
    expect(next).toBe(`/api/admin/users?page=2&pageSize=3&search=${marker}`);
    const second = await get(next!);
    expect(second.json()).toHaveLength(1);
    expect(second.headers.link).toBeUndefined();
    const emails = [...first.json(), ...second.json()].map((u: { email: string }) => u.email);
    expect(new Set(emails).size).toBe(4);

    // % and _ are literal, not wildcards.
    expect((await get('/api/admin/users?search=%25')).headers['x-total-count']).toBe('0');
    expect((await get('/api/admin/users?page=0')).statusCode).toBe(400);
    expect((await get('/api/admin/users?pageSize=101')).statusCode).toBe(400);
    const all = (await get('/api/admin/users')).json();
    expect(all.length).toBeLessThanOrEqual(20);
    expect(all.find((u: { role: string }) => u.role === 'admin')).toBeDefined();
    expect(JSON.stringify(all)).not.toMatch(/password|hash/i);
  });

  it('is for admins only', async () => {
    const { token } = await registerUser(t.app);
    expect((await get('/api/admin/dashboard/stats', token)).statusCode).toBe(403);
    expect((await get('/api/admin/users', token)).statusCode).toBe(403);
  });

  it('warns when the sandbox takes payments in production: in the log and on the dashboard', async () => {
    const log: string[] = [];
    const prod = await createTestApp(kind, {
      env: { NODE_ENV: 'production', LOG_LEVEL: 'warn' },
      logStream: { write: (line) => void log.push(line) },
    });
    try {
      const warning = log.map((line) => JSON.parse(line)).find((l) => l.level === 40);
      expect(warning?.msg).toMatch(/TEST MODE IN PRODUCTION.*PAYMENT_PROVIDER=stripe/);
      const token = await adminToken(prod.app);
      const stats = await prod.app.inject({
        url: '/api/admin/dashboard/stats',
        headers: bearer(token),
      });
      expect(adminStatsSchema.parse(stats.json()).paymentsSandboxInProduction).toBe(true);
      // The public strip still says test mode.
      expect((await prod.app.inject({ url: '/api/payments/mode' })).json()).toEqual({
        provider: 'sandbox',
        testMode: true,
      });
    } finally {
      await prod.close();
    }
  });
});
