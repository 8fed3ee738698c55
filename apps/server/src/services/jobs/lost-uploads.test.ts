import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { bearer, registerUser, type RegisteredUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import { jobDir, receivingSlots, submit, wav } from '../../test/jobs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { SILENT_UPLOAD_MS } from './job-service.js';

/**
 * A web process killed with uploads in flight leaves their slots behind, each holding one of the
 * user's five places. They are listed as waiting while their process may still be alive, and
 * freed with their partial files once nobody has renewed them for SILENT_UPLOAD_MS.
 */
describeEachDatabase('uploads left by a process that died', (kind) => {
  let t: TestApp;
  let user: RegisteredUser;
  beforeAll(async () => {
    t = await createTestApp(kind);
    user = await registerUser(t.app);
  });
  afterAll(() => t.close());

  const listed = async () =>
    (await t.app.inject({ url: '/api/jobs', headers: bearer(user.token) })).json() as {
      jobs: { id: string; status: string }[];
    };

  it.skipIf(!hasFfmpeg)('are listed while renewed, then freed: the places come back', async () => {
    const ids = await receivingSlots(t, user.user._id);
    const jobs = (await listed()).jobs.filter((job) => ids.includes(job.id));
    expect(jobs.map((job) => job.status)).toEqual(Array(5).fill('queued'));
    expect((await submit(t, user.token, wav)).statusCode).toBe(429);

    // Their process stops renewing them.
    await t.database.db
      .updateTable('jobs')
      .set({ updated_at: new Date(Date.now() - SILENT_UPLOAD_MS - 1000).toISOString() })
      .where('id', 'in', ids)
      .execute();
    // Each slot's row goes first, then its folder.
    await vi.waitFor(
      async () => {
        const left = await t.database.db
          .selectFrom('jobs')
          .select('id')
          .where('id', 'in', ids)
          .execute();
        expect(left).toEqual([]);
        expect(ids.filter((id) => existsSync(jobDir(t, id)))).toEqual([]);
      },
      { timeout: 120_000, interval: 200 },
    );
    expect((await listed()).jobs.filter((job) => ids.includes(job.id))).toEqual([]);
    expect((await submit(t, user.token, wav)).statusCode).toBe(202);
  });
});
