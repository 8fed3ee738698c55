import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaStatusSchema, userStatsSchema } from '@refract/contracts';
import { bearer, registerUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { pngBytes } from '../../test/image-fixtures.js';
import { multipart } from '../../test/multipart.js';
import { spend, subscribe } from '../../test/plans.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachDatabase('usage API', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const track = (token: string | undefined, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/track',
      payload,
      headers: token ? bearer(token) : {},
    });

  describe('POST /api/user/track', () => {
    const rotate = async (token: string) => {
      const body = multipart({}, { filename: 'dot.png', content: await pngBytes() });
      return t.app.inject({
        method: 'POST',
        url: '/api/rotate',
        payload: body.payload,
        headers: { ...body.headers, ...bearer(token) },
      });
    };

    it('charges each tracked use, with the quota headers', async () => {
      const { token } = await registerUser(t.app);
      for (let i = 1; i <= 2; i += 1) {
        const res = await track(token, { service: 'modify-rotate', imageCount: 1 });
        expect(res.statusCode).toBe(200);
        expect(quotaStatusSchema.parse(res.json())).toMatchObject({
          service: 'modify-rotate',
          used: i,
          quota: 3,
          remaining: 3 - i,
        });
        expect(res.headers['x-quota-limit']).toBe('3');
        expect(res.headers['x-quota-remaining']).toBe(String(3 - i));
        expect(new Date(String(res.headers['x-quota-reset'])).getTime()).toBeGreaterThan(
          Date.now(),
        );
      }
    });

    it("charges the earlier client's track-then-tool once per use: 3 Basic results, then 403", async () => {
      const { token } = await registerUser(t.app);
      for (let i = 1; i <= 3; i += 1) {
        expect((await track(token, { service: 'modify-rotate', imageCount: 1 })).statusCode).toBe(
          200,
        );
        const result = await rotate(token);
        expect(result.statusCode, result.body).toBe(200);
        expect(result.headers['x-quota-remaining']).toBe(String(3 - i));
      }
      const res = await track(token, { service: 'modify-rotate', imageCount: 1 });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'quota_exceeded',
        service: 'modify-rotate',
        used: 3,
        quota: 3,
        remaining: 0,
      });
      expect(res.json().error).toMatch(/upgrade/i);
      expect(res.headers['x-quota-remaining']).toBe('0');
    });

    it('refuses a count larger than what is left', async () => {
      const { token, user } = await registerUser(t.app);
      await spend(t.database.db, user._id, 'create-meme', 2);
      expect((await track(token, { service: 'create-meme', imageCount: 2 })).statusCode).toBe(403);
      expect((await track(token, { service: 'create-meme', imageCount: 1 })).json()).toMatchObject({
        used: 3,
        remaining: 0,
      });
    });

    it('refuses an unknown service with 400 unknown_service', async () => {
      const { token } = await registerUser(t.app);
      const res = await track(token, { service: 'mine-bitcoin', imageCount: 1 });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('unknown_service');
    });

    it.each([0, 101, 1.5, '1', -3])('refuses imageCount %j', async (imageCount) => {
      const { token } = await registerUser(t.app);
      const res = await track(token, { service: 'modify-crop', imageCount });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    });

    it('needs a signed-in user', async () => {
      expect((await track(undefined, { service: 'modify-crop', imageCount: 1 })).statusCode).toBe(
        401,
      );
    });

    it("charges a subscriber's uses on their plan", async () => {
      const { token, user } = await registerUser(t.app);
      await subscribe(t.database.db, user._id, 'developer');
      const res = await track(token, { service: 'convert-to-jpg', imageCount: 10 });
      expect(res.json()).toMatchObject({ used: 10, quota: 10, remaining: 0 });
    });
  });

  describe('GET /api/user/stats', () => {
    it('reports the plan, period and usage per service', async () => {
      const { token, user } = await registerUser(t.app);
      await spend(t.database.db, user._id, 'optimize-compress', 2);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/user/stats',
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(200);
      const stats = userStatsSchema.parse(res.json());
      expect(stats).toMatchObject({
        imagesProcessed: 2,
        remainingImages: 46,
        // The free plan, described as the earlier server did (its client marks the plan current).
        subscription: { plan: { name: 'Basic' }, billingType: 'free', endDate: null },
        plan: { name: 'Basic' },
      });
      expect(stats.usage.find((u) => u.service === 'optimize-compress')).toEqual({
        service: 'optimize-compress',
        used: 2,
        quota: 3,
        remaining: 1,
      });
    });

    it('shows an active subscription', async () => {
      const { token, user } = await registerUser(t.app);
      await subscribe(t.database.db, user._id, 'business', { billingType: 'annual' });
      const stats = (
        await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })
      ).json();
      expect(stats.subscription).toMatchObject({
        plan: { name: 'Business' },
        billingType: 'annual',
      });
      expect(stats.remainingImages).toBe(-1);
    });

    it('needs a signed-in user', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/user/stats' })).statusCode).toBe(401);
    });

    // The figures are kept in memory between reads; a write made anywhere (here by a quota
    // service of its own, as another process would, or by hand in SQL) shows at the next read.
    it('shows what another process charged or changed at the next read', async () => {
      const { token, user } = await registerUser(t.app);
      const stats = async () =>
        userStatsSchema.parse(
          (
            await t.app.inject({ method: 'GET', url: '/api/user/stats', headers: bearer(token) })
          ).json(),
        );
      const used = async () =>
        (await stats()).usage.find((u) => u.service === 'optimize-compress')!.used;
      expect(await used()).toBe(0);
      expect(await used()).toBe(0);
      await spend(t.database.db, user._id, 'optimize-compress', 1);
      expect(await used()).toBe(1);
      await t.database.db
        .updateTable('usage_counters')
        .set({ used: 3 })
        .where('user_id', '=', user._id)
        .where('service', '=', 'optimize-compress')
        .execute();
      expect(await used()).toBe(3);
      await subscribe(t.database.db, user._id, 'developer');
      expect((await stats()).plan.name).toBe('Developer');
      await t.database.db.deleteFrom('subscriptions').where('user_id', '=', user._id).execute();
      expect((await stats()).plan.name).toBe('Basic');
    });
  });
});
