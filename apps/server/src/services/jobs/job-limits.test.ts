import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseKind } from '../../db/database.js';
import { registerUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import { cancel, runningJob, submit, used, wav } from '../../test/jobs.js';
import { leftIn } from '../../test/multipart.js';
import { subscribe } from '../../test/plans.js';
import { describeEachQueue } from '../../test/queues.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The limits on jobs under way are checked and claimed in one step, before the
 * upload is read, so parallel submits get exactly the limit, on either database and queue.
 */
function limitsSuite(kind: DatabaseKind) {
  describeEachQueue('job limits under parallel submits', (queueEnv) => {
    const apps: TestApp[] = [];
    afterEach(async () => {
      while (apps.length) await apps.pop()!.close();
    });

    /** One worker, kept busy by a long job of its own user, so submitted jobs stay queued. */
    async function busyApp(env: Record<string, string> = {}) {
      const t = await createTestApp(kind, { env: { ...queueEnv, WORKERS: '1', ...env } });
      apps.push(t);
      const blocker = await registerUser(t.app);
      const running = await runningJob(t, blocker.token);
      return { t, stop: () => cancel(t, blocker.token, running) };
    }

    const rowsOf = (t: TestApp) => t.database.db.selectFrom('jobs').selectAll().execute();

    it.skipIf(!hasFfmpeg)(
      'accepts exactly 5 of 12 parallel submits by one user; the rest get 429, no row, no file, no charge',
      async () => {
        const { t, stop } = await busyApp();
        const user = await registerUser(t.app);
        // Unlimited uses, so only the cap on jobs under way can refuse.
        await subscribe(t.database.db, user.user._id, 'business');
        const answers = await Promise.all(
          Array.from({ length: 12 }, () => submit(t, user.token, wav)),
        );
        const accepted = answers.filter((a) => a.statusCode === 202);
        const refused = answers.filter((a) => a.statusCode !== 202);
        expect(accepted).toHaveLength(5);
        for (const answer of refused) {
          expect(answer.statusCode).toBe(429);
          expect(answer.json()).toMatchObject({ code: 'too_many_requests' });
          expect(answer.headers['retry-after']).toBe('10');
        }
        const ids = accepted.map((a) => a.json().jobId as string);
        const mine = (await rowsOf(t)).filter((r) => r.user_id === user.user._id);
        expect(mine.map((r) => r.id).sort()).toEqual([...ids].sort());
        expect(mine.every((r) => r.status === 'queued')).toBe(true);
        // The blocker's running job and the five accepted ones: nothing else on disk.
        expect(leftIn(t.database.options.dataDir, 'jobs')).toHaveLength(6);
        expect(await used(t, user.token)).toBe(5);
        for (const id of ids) await cancel(t, user.token, id);
        expect(await used(t, user.token)).toBe(0);
        await stop();
      },
    );

    it.skipIf(!hasFfmpeg)(
      'lets exactly JOB_QUEUE_LIMIT jobs wait when many users submit at once; the rest get 503',
      async () => {
        const { t, stop } = await busyApp({ JOB_QUEUE_LIMIT: '4' });
        const users = await Promise.all(Array.from({ length: 5 }, () => registerUser(t.app)));
        const answers = await Promise.all(
          users.flatMap((u) => [submit(t, u.token, wav), submit(t, u.token, wav)]),
        );
        const accepted = answers.filter((a) => a.statusCode === 202);
        expect(accepted).toHaveLength(4);
        for (const answer of answers.filter((a) => a.statusCode !== 202)) {
          expect(answer.statusCode).toBe(503);
          expect(answer.json()).toMatchObject({ code: 'server_busy' });
        }
        const rows = await rowsOf(t);
        expect(rows.filter((r) => r.status === 'queued')).toHaveLength(4);
        expect(rows.filter((r) => r.status === 'receiving')).toHaveLength(0);
        expect(leftIn(t.database.options.dataDir, 'jobs')).toHaveLength(5);
        const charged = await Promise.all(users.map((u) => used(t, u.token)));
        expect(charged.reduce((a, b) => a + b, 0)).toBe(4);
        await stop();
      },
    );
  });
}

describeEachDatabase('jobs', (kind) => {
  if (hasFfmpeg) limitsSuite(kind);
  else describe.skip('job limits (no ffmpeg)', () => {});
});
