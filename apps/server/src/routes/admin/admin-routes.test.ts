import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminStatsSchema, adminUsersResponseSchema } from '@refract/contracts';
import { adminToken, bearer, registerUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { subscribe } from '../../test/plans.js';
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
    await t.app.inject({
      method: 'POST',
      url: '/api/user/track',
      headers: bearer(dev.token),
      payload: { service: 'modify-crop', imageCount: 2 },
    });
    const stats = adminStatsSchema.parse((await get('/api/admin/dashboard/stats')).json());
    expect(stats.userStats.total).toBeGreaterThanOrEqual(3);
    expect(stats.userStats).toMatchObject({ developerPlan: 1, businessPlan: 1 });
    expect(stats.activeSubscriptions).toBe(2);
    expect(stats.featureUsage['modify-crop']).toBe(2);
    expect(stats.paymentsSandboxInProduction).toBe(false);
  });

  it('lists users with role, subscription and country (NA when absent), searchable and paginated', async () => {
    const marker = crypto.randomUUID().slice(0, 8);
    for (let i = 0; i < 3; i += 1) await registerUser(t.app, { name: `Needle ${marker} ${i}` });
    await registerUser(t.app, { email: `${marker}_under@example.com`, country: 'Japan' });
    const found = adminUsersResponseSchema.parse(
      (await get(`/api/admin/users?search=${marker.toUpperCase()}`)).json(),
    );
    expect(found.total).toBe(4);
    expect(found.users.find((u) => u.email.startsWith(marker))).toMatchObject({
      country: 'Japan',
      role: 'user',
      subscription: null,
    });
    expect(
      found.users.filter((u) => u.name.startsWith('Needle')).every((u) => u.country === 'NA'),
    ).toBe(true);

    // % and _ are literal, not wildcards.
    expect((await get('/api/admin/users?search=%25')).json().total).toBe(0);
    const page2 = (await get('/api/admin/users?page=2')).json();
    expect(page2.page).toBe(2);
    expect((await get('/api/admin/users?page=0')).statusCode).toBe(400);
    const all = (await get('/api/admin/users')).json();
    expect(all.users.find((u: { role: string }) => u.role === 'admin')).toBeDefined();
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
