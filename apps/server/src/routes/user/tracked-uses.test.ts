import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, registerUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { hasFfmpeg, pngBytes } from '../../test/image-fixtures.js';
import { cancel, ended, runningJob, submit, wav } from '../../test/jobs.js';
import { multipart } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The earlier client tracks each use (`POST /api/user/track`) before its tool, then runs the
 * tool in the browser or on the server. Tracking charges; a server run of the same service soon
 * after takes the tracked use instead of charging again: one charge either way.
 */
describeEachDatabase('tracked uses', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // One audio/video place, so a job can wait behind a paused one.
    t = await createTestApp(kind, { env: { REDIS_URL: '', WORKERS: '1' } });
  });
  afterAll(() => t.close());

  const track = (token: string, service: string, imageCount = 1) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/track',
      payload: { service, imageCount },
      headers: bearer(token),
    });
  const rotate = async (token: string, content?: Buffer) => {
    const body = multipart({}, { filename: 'dot.png', content: content ?? (await pngBytes()) });
    return t.app.inject({
      method: 'POST',
      url: '/api/rotate',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(token) },
    });
  };
  const usedOf = async (token: string, service: string) => {
    const stats = await t.app.inject({ url: '/api/user/stats', headers: bearer(token) });
    return stats.json().usage.find((u: { service: string }) => u.service === service).used;
  };

  it('charges a tracked use once: Basic tracks rotate 3 times, the fourth is 403', async () => {
    const { token } = await registerUser(t.app);
    for (let i = 1; i <= 3; i += 1) {
      const res = await track(token, 'modify-rotate');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ used: i, quota: 3, remaining: 3 - i });
      expect(res.headers['x-quota-remaining']).toBe(String(3 - i));
    }
    const refused = await track(token, 'modify-rotate');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'quota_exceeded', used: 3, remaining: 0 });
    expect(await usedOf(token, 'modify-rotate')).toBe(3);
  });

  it('charges track then the server tool once, and a tool alone once per run', async () => {
    const { token } = await registerUser(t.app);
    expect((await track(token, 'modify-rotate')).statusCode).toBe(200);
    const tracked = await rotate(token);
    expect(tracked.statusCode, tracked.body).toBe(200);
    expect(tracked.headers['x-quota-remaining']).toBe('2');
    expect(await usedOf(token, 'modify-rotate')).toBe(1);
    // No tracked use left: the next run is charged.
    expect((await rotate(token)).statusCode).toBe(200);
    expect(await usedOf(token, 'modify-rotate')).toBe(2);
  });

  it('takes each tracked use once when runs arrive together', async () => {
    const { token } = await registerUser(t.app);
    const tracks = await Promise.all([
      track(token, 'modify-rotate'),
      track(token, 'modify-rotate'),
    ]);
    expect(tracks.map((res) => res.statusCode)).toEqual([200, 200]);
    // Two runs take the two tracked uses, the third is charged the last use, two are refused.
    const runs = await Promise.all(Array.from({ length: 5 }, () => rotate(token)));
    expect(runs.map((res) => res.statusCode).sort()).toEqual([200, 200, 200, 403, 403]);
    expect(await usedOf(token, 'modify-rotate')).toBe(3);
  });

  it('keeps the tracked use for the next run when a run fails', async () => {
    const { token } = await registerUser(t.app);
    await track(token, 'modify-rotate');
    const png = await pngBytes();
    const broken = await rotate(token, png.subarray(0, png.length - 40));
    expect(broken.statusCode).toBeGreaterThanOrEqual(400);
    expect(await usedOf(token, 'modify-rotate')).toBe(1);
    expect((await rotate(token)).statusCode).toBe(200);
    expect(await usedOf(token, 'modify-rotate')).toBe(1);
  });

  it.skipIf(!hasFfmpeg)(
    'gives a job its tracked use back when it is cancelled, and the next job takes it',
    async () => {
      const { token } = await registerUser(t.app);
      const blocker = await runningJob(t, token);
      expect((await track(token, 'convert-audio')).statusCode).toBe(200);
      const queued = await submit(t, token, wav);
      expect(queued.statusCode, queued.body).toBe(202);
      const cancelled = await cancel(t, token, queued.json().jobId);
      expect(cancelled.json()).toMatchObject({ status: 'cancelled', charged: false });
      expect(await usedOf(token, 'convert-audio')).toBe(1);
      await cancel(t, token, blocker);

      const next = await submit(t, token, wav);
      expect((await ended(t, token, next.json().jobId)).status).toBe('done');
      expect(await usedOf(token, 'convert-audio')).toBe(1);
    },
  );
});
