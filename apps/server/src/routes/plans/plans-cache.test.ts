import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { SERVICES } from '@refract/contracts';
import { adminToken, bearer, registerUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const URL = '/api/subscriptions/plans';

/**
 * Plans are answered from memory with an ETag. Two apps on one database stand for two server
 * processes: an edit made through either, or straight in SQL, shows at once on both.
 */
describeEachDatabase('plans served from memory', (kind) => {
  let one: TestApp;
  let two: TestApp;
  let admin: string;
  beforeAll(async () => {
    one = await createTestApp(kind);
    two = await createTestApp(kind, { database: one.database });
    admin = await adminToken(two.app);
  });
  afterAll(async () => {
    await two.close();
    await one.close();
  });

  const list = (app: TestApp, headers: Record<string, string> = {}) =>
    app.app.inject({ method: 'GET', url: URL, headers });
  const developerOf = (res: { json(): { name: string; monthlyFee: number }[] }) =>
    res.json().find((p) => p.name === 'Developer')!;

  it('sends an ETag, and 304 with no body when the client has that copy', async () => {
    const first = await list(one);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const again = await list(one, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await list(one, { 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
    const stale = await list(one, { 'if-none-match': '"something-else"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(first.json());
  });

  it('shows the hidden admin plan only to an admin, privately, under another ETag', async () => {
    const anonymous = await list(one);
    const asAdmin = await list(one, bearer(admin));
    expect(asAdmin.json().map((p: { name: string }) => p.name)).toContain('admin');
    expect(anonymous.json().map((p: { name: string }) => p.name)).not.toContain('admin');
    expect(asAdmin.headers['cache-control']).toBe('private, no-cache');
    expect(asAdmin.headers.etag).not.toBe(anonymous.headers.etag);
    const { token } = await registerUser(one.app);
    const asUser = await list(one, { ...bearer(token), 'if-none-match': asAdmin.headers.etag! });
    expect(asUser.statusCode).toBe(200);
    expect(asUser.json()).toEqual(anonymous.json());
  });

  it('answers an admin edit made through another process at once, with a new ETag', async () => {
    const before = await list(one);
    const developer = developerOf(before);
    const edited = await two.app.inject({
      method: 'PUT',
      url: `${URL}/${(developer as unknown as { _id: string })._id}`,
      headers: bearer(admin),
      payload: {
        name: 'Developer',
        monthlyFee: 5.49,
        annualFee: 52.9,
        features: ['All services included'],
        services: SERVICES.map((name) => ({ name, monthlyQuota: 11, annualQuota: 130 })),
      },
    });
    expect(edited.statusCode).toBe(200);
    const after = await list(one, { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(developerOf(after).monthlyFee).toBe(5.49);
    const plan = (
      await one.app.inject({ method: 'GET', url: `${URL}/${after.json()[1]._id}` })
    ).json();
    expect(plan.services[0]).toMatchObject({ monthlyQuota: 11, annualQuota: 130 });
  });

  it('sees a change made straight in SQL (a trigger bumps the version)', async () => {
    const before = await list(one);
    await sql`UPDATE plans SET monthly_fee_cents = 777 WHERE slug = 'developer'`.execute(
      one.database.db,
    );
    const after = await list(one);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(developerOf(after).monthlyFee).toBe(7.77);
  });

  it('gives a Basic user the quota edited in SQL through the other process', async () => {
    const { token } = await registerUser(one.app);
    const stats = async () =>
      (await one.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) }))
        .json()
        .usage.find((u: { service: string }) => u.service === SERVICES[0]).quota;
    const basicQuota = await stats();
    await sql`UPDATE plan_quotas SET monthly_quota = ${basicQuota + 4}
      WHERE plan_id = (SELECT id FROM plans WHERE slug = 'basic')`.execute(two.database.db);
    expect(await stats()).toBe(basicQuota + 4);
  });
});
