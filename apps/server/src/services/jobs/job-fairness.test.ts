import { EventEmitter } from 'node:events';
import type { DatabaseKind } from '../../db/database.js';
import { owedWrites } from '../../lib/owed-writes.js';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { jobsRepository, type JobRow } from '../../db/repositories/jobs-repository.js';
import { settingsRepository } from '../../db/repositories/settings-repository.js';
import { sharedVolumeGuard } from '../health/volume-marker.js';
import { registerUser } from '../../test/accounts.js';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import {
  cancel,
  ended,
  jobDir,
  result,
  runningJob,
  status,
  submit,
  until,
  used,
  wav,
} from '../../test/jobs.js';
import { postgresUrl } from '../../test/databases.js';
import { createMetrics } from '../../metrics/metrics.js';
import { loadConfig } from '../../config.js';
import { lowBitrateMp3, silentFlac } from '../../test/media-fixtures.js';
import { subscribe } from '../../test/plans.js';
import { describeEachQueue } from '../../test/queues.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { localQueue } from './job-queue.js';
import type { JobRunner } from './job-runner.js';
import { CHARGE_AFTER_MS, chargedWhenStopped, jobService } from './job-service.js';

/** Fair turns between users, the charging rule for stopped work, kept results. */
/** 2 seconds at 32 kbps: about 8 KB. */
const smallMp3 = hasFfmpeg ? lowBitrateMp3() : Buffer.alloc(0);

describeEachQueue('job fairness, charging and results', (queueEnv) => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    while (apps.length) await apps.pop()!.close();
  });

  async function start(env: Record<string, string> = {}, kind: DatabaseKind = 'sqlite') {
    const t = await createTestApp(kind, { env: { ...queueEnv, ...env } });
    apps.push(t);
    const user = await registerUser(t.app);
    await subscribe(t.database.db, user.user._id, 'business');
    return { t, token: user.token };
  }

  const row = (t: TestApp, id: string) => jobsRepository(t.database.db).find(id);

  /** A job service of its own on the app's database, as another process would have. */
  function serviceOn(t: TestApp, deps: Partial<Parameters<typeof jobService>[0]> = {}) {
    const db = t.database.db;
    return jobService({
      jobs: jobsRepository(db),
      dataDir: t.database.options.dataDir,
      volume: sharedVolumeGuard(t.database.options.dataDir, settingsRepository(db)),
      queueLimit: 20,
      resultTtlMs: 3_600_000,
      queue: localQueue(0, async () => {}),
      runner: { interrupt() {} } as unknown as JobRunner,
      changes: new EventEmitter(),
      log: t.app.log,
      owed: owedWrites(t.app.log),
      metrics: createMetrics(loadConfig({})),
      ...deps,
    });
  }

  it.skipIf(!hasFfmpeg)(
    "runs another user's job before one user's queued backlog (WORKERS=1)",
    async () => {
      const { t, token } = await start({ WORKERS: '1' });
      const first = await runningJob(t, token);
      const backlog: string[] = [];
      for (let i = 0; i < 4; i++) backlog.push((await submit(t, token, wav)).json().jobId);
      const other = await registerUser(t.app);
      const theirs = (await submit(t, other.token, wav)).json().jobId as string;
      // The worker frees up: the user it has not served yet goes first.
      await cancel(t, token, first);
      for (const id of backlog) expect((await ended(t, token, id)).status).toBe('done');
      expect((await ended(t, other.token, theirs)).status).toBe('done');
      const startOf = async (id: string) => (await row(t, id))!.started_at!;
      const theirStart = await startOf(theirs);
      for (const id of backlog) expect(theirStart < (await startOf(id))).toBe(true);
    },
  );

  it.skipIf(!hasFfmpeg)(
    'charges a job cancelled after substantial work, and says so in its state',
    async () => {
      const { t, token } = await start();
      const id = await runningJob(t, token);
      // As if it had run past the rule's minute (progress would need a slower encode to wait for).
      const longAgo = new Date(Date.now() - CHARGE_AFTER_MS - 1000).toISOString();
      await t.database.db
        .updateTable('jobs')
        .set({ started_at: longAgo })
        .where('id', '=', id)
        .execute();
      const res = await cancel(t, token, id);
      expect(res.json()).toMatchObject({ status: 'cancelled', charged: true });
      expect(res.json().error.message).toMatch(/charged/);
      expect(await used(t, token)).toBe(1);
      await until(() => !existsSync(jobDir(t, id)), 'its files to go');
    },
  );

  it.skipIf(!hasFfmpeg)('does not charge a job cancelled early', async () => {
    const { t, token } = await start();
    const id = await runningJob(t, token);
    const res = await cancel(t, token, id);
    expect(res.json()).toMatchObject({ status: 'cancelled', charged: false });
    expect(await used(t, token)).toBe(0);
  });

  it('charges by progress (50 %) or running time (a minute), only for running jobs', () => {
    const at = Date.parse('2026-11-23T12:00:00.000Z');
    const job = (over: Partial<JobRow>) =>
      ({
        status: 'running',
        progress: 0,
        started_at: new Date(at - 1000).toISOString(),
        ...over,
      }) as JobRow;
    expect(chargedWhenStopped(job({ progress: 49 }), at)).toBe(false);
    expect(chargedWhenStopped(job({ progress: 50 }), at)).toBe(true);
    const early = new Date(at - CHARGE_AFTER_MS + 1000).toISOString();
    const late = new Date(at - CHARGE_AFTER_MS).toISOString();
    expect(chargedWhenStopped(job({ started_at: early }), at)).toBe(false);
    expect(chargedWhenStopped(job({ started_at: late }), at)).toBe(true);
    expect(chargedWhenStopped(job({ status: 'queued', progress: 80 }), at)).toBe(false);
  });

  it.skipIf(!hasFfmpeg)(
    'keeps the result of a job cancelled at the moment it completes',
    async () => {
      const { t, token } = await start();
      const { jobId } = (await submit(t, token, wav)).json();
      expect((await ended(t, token, jobId)).status).toBe('done');
      // A cancel that read the job just before it finished (the route reads, then cancels).
      await serviceOn(t).cancel({ ...(await row(t, jobId))!, status: 'running' });
      expect((await status(t, token, jobId)).json()).toMatchObject({
        status: 'done',
        charged: true,
      });
      expect((await result(t, token, jobId)).statusCode).toBe(200);
      expect(await used(t, token)).toBe(1);
      // And through the API: a cancel of a done job answers its state and changes nothing.
      const res = await cancel(t, token, jobId);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'done', charged: true });
      expect((await result(t, token, jobId)).statusCode).toBe(200);
    },
  );

  // On both databases: the give-back comes from the waiver's own UPDATE … RETURNING.
  it.skipIf(!hasFfmpeg).each<DatabaseKind>(postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'])(
    'gives the use back once when a request told 503 is waived after its job ended charged, though the database fails mid-way (%s)',
    async (kind) => {
      const { t, token } = await start({}, kind);
      const { jobId } = (await submit(t, token, wav)).json();
      expect((await ended(t, token, jobId)).status).toBe('done');
      expect(await used(t, token)).toBe(1);
      // The database drops the connection once, after the waiver's first write (as it does
      // when it has just come back); the waiver is then owed and tried again.
      const jobs = jobsRepository(t.database.db);
      let dropped = false;
      const flaky = {
        ...jobs,
        async find(id: string) {
          if (!dropped) {
            dropped = true;
            throw new Error('Connection terminated unexpectedly');
          }
          return jobs.find(id);
        },
      };
      const owed = owedWrites(t.app.log);
      const service = serviceOn(t, { jobs: flaky, owed });
      await service.waive(jobId);
      await owed.flush();
      expect(owed.size).toBe(0);
      expect((await status(t, token, jobId)).json()).toMatchObject({ charged: false });
      expect(await used(t, token)).toBe(0);
      // Told 503 twice (two waiting requests): still one use given back.
      await service.waive(jobId);
      expect(await used(t, token)).toBe(0);
    },
  );

  it.skipIf(!hasFfmpeg)('answers 410 result_expired when a result file is missing', async () => {
    const { t, token } = await start();
    const { jobId } = (await submit(t, token, wav)).json();
    expect((await ended(t, token, jobId)).status).toBe('done');
    const { result_file } = (await row(t, jobId))!;
    rmSync(join(jobDir(t, jobId), result_file!));
    const res = await result(t, token, jobId);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({
      error: expect.any(String),
      code: 'result_expired',
    });
  });

  it.skipIf(!hasFfmpeg)(
    "keeps a user's results within RESULT_DISK_PER_USER, evicting the oldest",
    async () => {
      // 0.1 MB: room for one 2-second WAV at 22 kHz (88 KB), not two. The allowance also caps
      // the upload, so the input is an 8 KB MP3.
      const { t, token } = await start({ RESULT_DISK_PER_USER: '0.1', WORKERS: '1' });
      const other = await registerUser(t.app);
      const theirs = (await submit(t, other.token, smallMp3, 'wav')).json().jobId as string;
      await ended(t, other.token, theirs);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { jobId } = (await submit(t, token, smallMp3, 'wav')).json();
        expect((await ended(t, token, jobId)).status).toBe('done');
        ids.push(jobId);
      }
      const answers = await Promise.all(ids.map((id) => result(t, token, id)));
      expect(answers[0]!.statusCode).toBe(410);
      expect(answers[0]!.json().code).toBe('result_expired');
      expect(answers[3]!.statusCode).toBe(200);
      const kept = answers.filter((a) => a.statusCode === 200);
      const keptBytes = kept.reduce((sum, a) => sum + a.rawPayload.length, 0);
      expect(keptBytes).toBeLessThanOrEqual(0.1 * 1024 * 1024);
      expect(existsSync(jobDir(t, ids[0]!))).toBe(false);
      // Another user's results are theirs to keep.
      expect((await result(t, other.token, theirs)).statusCode).toBe(200);
    },
  );

  it.skipIf(!hasFfmpeg)(
    'removes the upload when a job ends done: the job keeps only its result on disk',
    async () => {
      const { t, token } = await start();
      const { jobId } = (await submit(t, token, wav)).json();
      const job = await ended(t, token, jobId);
      expect(job.status).toBe('done');
      // Removed right after the job shows as done (a job re-queued at that moment keeps it).
      await until(() => readdirSync(jobDir(t, jobId)).length === 1, 'the upload to go');
      expect(readdirSync(jobDir(t, jobId))).toEqual([expect.stringMatching(/^result\./)]);
      expect((await result(t, token, jobId)).statusCode).toBe(200);
    },
  );

  it.skipIf(!hasFfmpeg)('fails a result larger than the whole allowance, uncharged', async () => {
    // 10 KB: ten seconds of FLAC silence at 1 kHz (8 KB) fit as an upload, not as a 20 KB WAV.
    const { t, token } = await start({ RESULT_DISK_PER_USER: '0.01' });
    const { jobId } = (await submit(t, token, silentFlac(10), 'wav')).json();
    const job = await ended(t, token, jobId);
    expect(job).toMatchObject({ status: 'failed', charged: false });
    expect(job.error.code).toBe('file_too_large');
    expect(await used(t, token)).toBe(0);
    await until(() => !existsSync(jobDir(t, jobId)), 'its files to go');
  });
});
