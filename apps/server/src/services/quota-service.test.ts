import { afterEach, beforeEach, expect, it } from 'vitest';
import { paymentsRepository } from '../db/repositories/payments-repository.js';
import { plansRepository } from '../db/repositories/plans-repository.js';
import { settingsRepository } from '../db/repositories/settings-repository.js';
import { subscriptionsRepository } from '../db/repositories/subscriptions-repository.js';
import { usageRepository } from '../db/repositories/usage-repository.js';
import { usersRepository, type UserRow } from '../db/repositories/users-repository.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../test/databases.js';
import { subscribe } from '../test/plans.js';
import { planService } from './plan-service.js';
import { quotaService, TRACKED_USE_MS, type QuotaService } from './quota-service.js';

describeEachDatabase('quota engine', (kind) => {
  let database: TestDatabase;
  let now: Date;
  let quotas: QuotaService;
  let user: UserRow;

  beforeEach(async () => {
    database = await createTestDatabase(kind);
    const plans = plansRepository(database.db);
    const subscriptions = subscriptionsRepository(database.db);
    await planService(
      plans,
      subscriptions,
      settingsRepository(database.db),
      paymentsRepository(database.db),
      { image: Infinity, media: Infinity },
    ).seedDefaults();
    now = new Date('2026-11-20T12:00:00Z');
    quotas = quotaService(plans, subscriptions, usageRepository(database.db), () => now);
    user = await newUser();
  });
  afterEach(() => database.dispose());

  async function newUser(isAdmin = false) {
    return usersRepository(database.db).create({
      email: `${crypto.randomUUID()}@example.com`,
      name: 'Quota Tester',
      passwordHash: 'not-a-real-hash',
      isAdmin,
    });
  }

  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (err: { code?: string }) => err.code,
    );

  it('gives Basic 3 uses per service per month, then quota_exceeded with the figures', async () => {
    for (let i = 1; i <= 3; i += 1) {
      expect(await quotas.track(user, 'modify-rotate', 1)).toMatchObject({
        used: i,
        quota: 3,
        remaining: 3 - i,
      });
    }
    await expect(quotas.track(user, 'modify-rotate', 1)).rejects.toMatchObject({
      status: 403,
      code: 'quota_exceeded',
      extra: {
        service: 'modify-rotate',
        used: 3,
        quota: 3,
        remaining: 0,
        resetsAt: '2026-12-01T00:00:00.000Z',
      },
    });
    // Quotas are per service.
    expect(await quotas.track(user, 'optimize-compress', 1)).toMatchObject({ used: 1 });
  });

  it('refuses a charge larger than what is left, without using any of it', async () => {
    await quotas.track(user, 'create-meme', 2);
    expect(await code(quotas.track(user, 'create-meme', 2))).toBe('quota_exceeded');
    expect(await quotas.track(user, 'create-meme', 1)).toMatchObject({ used: 3, remaining: 0 });
  });

  it('starts again at zero in the next calendar month (UTC)', async () => {
    now = new Date('2026-11-30T23:59:59.999Z');
    await quotas.track(user, 'modify-crop', 3);
    expect(await code(quotas.track(user, 'modify-crop', 1))).toBe('quota_exceeded');
    now = new Date('2026-12-01T00:00:00.000Z');
    expect(await quotas.track(user, 'modify-crop', 1)).toMatchObject({
      used: 1,
      resetsAt: '2027-01-01T00:00:00.000Z',
    });
  });

  it('uses the month of a paid billing cycle, with the plan quota', async () => {
    await subscribe(database.db, user.id, 'developer', {
      anchor: new Date('2026-10-25T09:00:00Z'),
    });
    const status = await quotas.track(user, 'convert-to-jpg', 10);
    expect(status).toMatchObject({
      used: 10,
      quota: 10,
      remaining: 0,
      resetsAt: '2026-11-25T09:00:00.000Z',
    });
    expect(await code(quotas.track(user, 'convert-to-jpg', 1))).toBe('quota_exceeded');
    now = new Date('2026-11-25T09:00:00Z');
    expect(await quotas.track(user, 'convert-to-jpg', 1)).toMatchObject({ used: 1 });
  });

  it('gives an annual subscription the annual quota over its year', async () => {
    await subscribe(database.db, user.id, 'developer', {
      billingType: 'annual',
      anchor: new Date('2026-03-01T00:00:00Z'),
    });
    expect(await quotas.track(user, 'compress-video', 100)).toMatchObject({
      quota: 120,
      remaining: 20,
    });
    now = new Date('2027-02-28T23:00:00Z');
    expect(await quotas.track(user, 'compress-video', 20)).toMatchObject({
      used: 120,
      resetsAt: '2027-03-01T00:00:00.000Z',
    });
    expect(await code(quotas.track(user, 'compress-video', 1))).toBe('quota_exceeded');
  });

  it('falls back to Basic when the subscription has expired', async () => {
    await subscribe(database.db, user.id, 'business', {
      anchor: new Date('2026-09-01T00:00:00Z'),
      end: new Date('2026-11-20T11:59:59Z'),
    });
    const stats = await quotas.stats(user);
    expect(stats.plan.name).toBe('Basic');
    expect(stats.subscription).toEqual({
      plan: { name: 'Basic' },
      billingType: 'free',
      endDate: null,
    });
    await quotas.track(user, 'convert-audio', 3);
    expect(await code(quotas.track(user, 'convert-audio', 1))).toBe('quota_exceeded');
  });

  it('never limits -1 (Business) or admins', async () => {
    await subscribe(database.db, user.id, 'business');
    for (let i = 0; i < 5; i += 1) await quotas.track(user, 'optimize-upscale', 100);
    expect(await quotas.track(user, 'optimize-upscale', 1)).toMatchObject({
      used: 501,
      quota: -1,
      remaining: -1,
    });
    const admin = await newUser(true);
    expect(await quotas.track(admin, 'security-blur-face', 100)).toMatchObject({ quota: -1 });
    expect((await quotas.stats(admin)).remainingImages).toBe(-1);
  });

  it('releases a reservation when the tool fails, and confirms it once when it succeeds', async () => {
    const failed = await quotas.reserve(user, 'security-watermark', 2);
    expect(failed.status.used).toBe(2);
    await failed.release();
    await failed.release();
    const ok = await quotas.reserve(user, 'security-watermark', 3);
    expect(ok.status).toMatchObject({ used: 3, remaining: 0 });
    await ok.confirm();
    await ok.release(); // no effect once confirmed
    const stats = await quotas.stats(user);
    expect(stats.usage.find((u) => u.service === 'security-watermark')).toMatchObject({
      used: 3,
      remaining: 0,
    });
    expect(stats.imagesProcessed).toBe(3);
  });

  it('lets exactly 3 of 50 concurrent charges through', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => quotas.track(user, 'convert-video', 1)),
    );
    const succeeded = results.filter((r) => r.status === 'fulfilled');
    expect(succeeded).toHaveLength(3);
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(refused.every((r) => (r.reason as { code: string }).code === 'quota_exceeded')).toBe(
      true,
    );
    expect((await quotas.stats(user)).usage.find((u) => u.service === 'convert-video')?.used).toBe(
      3,
    );
  });

  it('lets a run within 10 minutes of a tracked use take it: one charge, one event', async () => {
    await quotas.track(user, 'modify-rotate', 1);
    now = new Date(now.getTime() + TRACKED_USE_MS - 1);
    const run = await quotas.reserve(user, 'modify-rotate', 1);
    expect(run).toMatchObject({ tracked: true, status: { used: 1, remaining: 2 } });
    await run.confirm();
    expect(await usageRepository(database.db).totalsByService()).toEqual({ 'modify-rotate': 1 });
    // Taken: the next run is charged.
    expect(await quotas.reserve(user, 'modify-rotate', 1)).toMatchObject({
      tracked: false,
      status: { used: 2 },
    });
  });

  it('gives a tracked use back to the tracked uses, not the count, when its run fails', async () => {
    await quotas.track(user, 'modify-rotate', 1);
    await (await quotas.reserve(user, 'modify-rotate', 1)).release();
    expect((await quotas.stats(user)).imagesProcessed).toBe(1);
    expect(await quotas.reserve(user, 'modify-rotate', 1)).toMatchObject({ tracked: true });
  });

  it('charges a run again once its tracked use is 10 minutes old', async () => {
    await quotas.track(user, 'modify-rotate', 1);
    now = new Date(now.getTime() + TRACKED_USE_MS);
    expect(await quotas.reserve(user, 'modify-rotate', 1)).toMatchObject({
      tracked: false,
      status: { used: 2 },
    });
    // Tracked again later: only the new use waits (the expired one is not added to it).
    await quotas.track(user, 'modify-rotate', 1);
    expect(await quotas.reserve(user, 'modify-rotate', 1)).toMatchObject({ tracked: true });
    expect(await code(quotas.reserve(user, 'modify-rotate', 1))).toBe('quota_exceeded');
  });

  it('reports stats: plan, period, per-service usage and totals', async () => {
    await quotas.track(user, 'modify-rotate', 2);
    const stats = await quotas.stats(user);
    expect(stats).toMatchObject({
      imagesProcessed: 2,
      remainingImages: 16 * 3 - 2,
      subscription: { plan: { name: 'Basic' }, billingType: 'free', endDate: null },
      plan: { name: 'Basic' },
      periodStart: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-12-01T00:00:00.000Z',
    });
    expect(stats.usage).toHaveLength(16);
  });
});
