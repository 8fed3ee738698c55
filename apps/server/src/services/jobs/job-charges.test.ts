import { expect, it } from 'vitest';
import { jobsRepository } from '../../db/repositories/jobs-repository.js';
import { usageRepository } from '../../db/repositories/usage-repository.js';
import { registerUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import { cancel, runningJob, submit, until, wav } from '../../test/jobs.js';
import { createTestApp } from '../../test/test-app.js';

/**
 * A job's end and its quota charge are one change: whoever reads the job as ended reads the
 * user's count as settled too. Written apart, a job waived because its waiting request was
 * answered 503 read as done and free while the use still counted (the fault suite saw it
 * with two browser workers beside it).
 */
describeEachDatabase("a job's end and its charge", (kind) => {
  it.skipIf(!hasFfmpeg)(
    'land together: a waived job never reads done while its use still counts',
    async () => {
      // One audio/video place, so the job under test waits behind a paused one.
      const t = await createTestApp(kind, { env: { REDIS_URL: '', WORKERS: '1' } });
      try {
        const { token } = await registerUser(t.app);
        const blocker = await runningJob(t, token);
        const queued = await submit(t, token, wav);
        expect(queued.statusCode, queued.body).toBe(202);
        const jobId: string = queued.json().jobId;
        const jobs = jobsRepository(t.database.db);
        const usage = usageRepository(t.database.db);
        const job = (await jobs.find(jobId))!;
        expect(job.status).toBe('queued');
        // As the job service does when the job's waiting request is answered 503.
        await jobs.waive(jobId);

        // The record, then the count, read at every turn of the event loop while the job ends.
        const seen = new Set<string>();
        let watching = true;
        const watcher = (async () => {
          while (watching) {
            const row = await jobs.find(jobId);
            const counts = await usage.usedInPeriod(job.user_id, job.period_start);
            seen.add(`${row?.status} charged=${row?.charged} counted=${counts.get(job.service)}`);
            await new Promise((resolve) => setImmediate(resolve));
          }
        })();
        await cancel(t, token, blocker);
        await until(async () => (await jobs.find(jobId))?.status === 'done', 'the job to end');
        // One more full read after the end.
        await until(async () => [...seen].some((s) => s.startsWith('done')), 'a read of the end');
        watching = false;
        await watcher;

        const ends = [...seen].filter((s) => !s.startsWith('queued') && !s.startsWith('running'));
        expect(ends).toEqual(['done charged=0 counted=0']);
      } finally {
        await t.close();
      }
    },
  );
});
