import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { jobsRepository } from '../../db/repositories/jobs-repository.js';
import { usageRepository } from '../../db/repositories/usage-repository.js';
import { bearer, registerUser } from '../../test/accounts.js';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import {
  ended,
  ffmpegFor,
  longVideo,
  runningJob,
  status,
  submit,
  until,
  used,
  wav,
} from '../../test/jobs.js';
import { leftIn, multipart, postForm } from '../../test/multipart.js';
import { subscribe } from '../../test/plans.js';
import { describeEachQueue, redisUrl } from '../../test/queues.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachQueue('audio and video jobs', (queueEnv) => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    while (apps.length) await apps.pop()!.close();
  });

  async function start(env: Record<string, string> = {}) {
    const t = await createTestApp('sqlite', { env: { ...queueEnv, ...env } });
    apps.push(t);
    const user = await registerUser(t.app);
    return { t, user, token: user.token };
  }

  const jobDir = (t: TestApp, id: string) => join(t.database.options.dataDir, 'jobs', id);

  it.skipIf(!hasFfmpeg)('runs an async job: 202, live events, status, then the file', async () => {
    const { t, token } = await start();
    const res = await submit(t, token, wav);
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json();

    const events = await t.app.inject({ url: `/api/jobs/${jobId}/events`, headers: bearer(token) });
    expect(events.headers['content-type']).toMatch(/^text\/event-stream/);
    const blocks = events.body.trim().split('\n\n');
    const last = blocks.at(-1)!;
    expect(last).toMatch(/^event: end\n/);
    expect(JSON.parse(last.split('data: ')[1]!)).toMatchObject({ status: 'done', progress: 100 });

    const job = (await status(t, token, jobId)).json();
    expect(job).toMatchObject({
      status: 'done',
      progress: 100,
      filename: 'upload.mp3',
      inputBytes: wav.length,
    });
    expect(job.outputBytes).toBeGreaterThan(0);
    expect(JSON.stringify(job)).not.toContain(t.database.options.dataDir);

    const file = await t.app.inject({ url: `/api/jobs/${jobId}/result`, headers: bearer(token) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="upload.mp3"');
    expect(file.rawPayload.length).toBe(job.outputBytes);
    expect(await used(t, token)).toBe(1);
  });

  it.skipIf(!hasFfmpeg)('runs jobs for an API key, charged to its owner', async () => {
    const { t, token } = await start();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/keys',
      payload: { name: 'jobs' },
      headers: bearer(token),
    });
    const { key } = created.json();
    const res = await submit(t, key, wav);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.headers['x-quota-remaining']).toBe('2');
    const { jobId } = res.json();
    await t.app.inject({ url: `/api/jobs/${jobId}/events`, headers: { 'x-api-key': key } });
    expect((await status(t, key, jobId)).json().status).toBe('done');
    const file = await t.app.inject({ url: `/api/jobs/${jobId}/result`, headers: bearer(key) });
    expect(file.statusCode).toBe(200);
    const waited = await submit(t, key, wav, 'mp3', false);
    expect(waited.statusCode).toBe(200);
    expect(waited.headers['x-quota-remaining']).toBe('1');
    expect(await used(t, token)).toBe(2);
  });

  it.skipIf(!hasFfmpeg)('shows a job to its owner only', async () => {
    const { t, token } = await start();
    const { jobId } = (await submit(t, token, wav)).json();
    const other = await registerUser(t.app);
    for (const [method, suffix] of [
      ['GET', ''],
      ['GET', '/events'],
      ['GET', '/result'],
      ['DELETE', ''],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/jobs/${jobId}${suffix}`,
        headers: bearer(other.token),
      });
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    const anonymous = await t.app.inject({ url: `/api/jobs/${jobId}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it.skipIf(!hasFfmpeg)(
    'cancels a running job: ffmpeg is killed, files go, nothing is charged',
    async () => {
      const { t, token } = await start();
      const jobId = await runningJob(t, token);
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/jobs/${jobId}`,
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('cancelled');
      await until(() => ffmpegFor(jobId).length === 0, 'ffmpeg to stop');
      await until(() => !existsSync(jobDir(t, jobId)), 'the files to go');
      expect(await used(t, token)).toBe(0);
      const result = await t.app.inject({
        url: `/api/jobs/${jobId}/result`,
        headers: bearer(token),
      });
      expect(result.json().code).toBe('job_cancelled');
    },
  );

  it.skipIf(!hasFfmpeg)('answers 503 server_busy when the queue is full', async () => {
    const { t, token } = await start({ WORKERS: '1', JOB_QUEUE_LIMIT: '1' });
    const running = await runningJob(t, token);
    const waiting = await submit(t, token, wav);
    expect(waiting.statusCode).toBe(202);
    const refused = await submit(t, token, wav);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().code).toBe('server_busy');
    expect(refused.headers['retry-after']).toBe('30');
    // A waiting job cancels too, and its files go at once.
    const queuedId = waiting.json().jobId;
    expect((await status(t, token, queuedId)).json().status).toBe('queued');
    await t.app.inject({ method: 'DELETE', url: `/api/jobs/${queuedId}`, headers: bearer(token) });
    expect(existsSync(jobDir(t, queuedId))).toBe(false);
    await t.app.inject({ method: 'DELETE', url: `/api/jobs/${running}`, headers: bearer(token) });
    expect(await used(t, token)).toBe(0);
  });

  it.skipIf(!hasFfmpeg)('lets one user have at most 5 jobs under way', async () => {
    const { t, token, user } = await start({ WORKERS: '1' });
    // Unlimited uses, so only the cap on jobs under way can refuse.
    await subscribe(t.database.db, user.user._id, 'business');
    const ids = [await runningJob(t, token)];
    for (let i = 0; i < 4; i++) {
      const queued = await submit(t, token, wav);
      expect(queued.statusCode, queued.body).toBe(202);
      ids.push(queued.json().jobId);
    }
    const refused = await submit(t, token, wav);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json().code).toBe('too_many_requests');
    // Someone else is not held up by it.
    const other = await registerUser(t.app);
    expect((await submit(t, other.token, wav)).statusCode).toBe(202);
    for (const id of ids)
      await t.app.inject({ method: 'DELETE', url: `/api/jobs/${id}`, headers: bearer(token) });
  });

  it.skipIf(!hasFfmpeg)(
    'cancels the job of a client that goes away from a waiting request',
    async () => {
      const { t, token } = await start();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const body = multipart(
        { format: 'webm' },
        { field: 'video', filename: 'in', content: longVideo },
      );
      const req = httpRequest({
        port,
        method: 'POST',
        path: '/api/video/convert-video',
        headers: { ...body.headers, ...bearer(token) },
      });
      req.on('error', () => {});
      req.end(body.payload);
      const jobs = jobsRepository(t.database.db);
      const job = await until(
        async () =>
          (await jobs.listSilent(new Date(Date.now() + 1000).toISOString())).find(
            (j) => j.status === 'running',
          ),
        'a running job',
      );
      await until(() => ffmpegFor(job.id).length > 0, 'ffmpeg to start');
      req.destroy();
      await until(
        async () => (await jobs.find(job.id))?.status === 'cancelled',
        'the job to be cancelled',
      );
      await until(
        () => ffmpegFor(job.id).length === 0 && !existsSync(jobDir(t, job.id)),
        'cleanup',
      );
      expect(await used(t, token)).toBe(0);
    },
  );

  it.skipIf(!hasFfmpeg)('deletes results after RESULT_TTL, then answers 410', async () => {
    const { t, token } = await start({ RESULT_TTL: '1' });
    const { jobId } = (await submit(t, token, wav)).json();
    await until(async () => (await status(t, token, jobId)).json().status === 'done', 'done');
    expect(existsSync(jobDir(t, jobId))).toBe(true);
    await until(() => !existsSync(jobDir(t, jobId)), 'expiry');
    const gone = await t.app.inject({ url: `/api/jobs/${jobId}/result`, headers: bearer(token) });
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ code: 'result_expired' });
  });

  it('fails interrupted jobs on restart, uncharged, and removes their files', async () => {
    const { t, token, user } = await start();
    const periodStart = (
      await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })
    ).json().periodStart;
    const jobs = jobsRepository(t.database.db);
    const minutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    const slot = { id: 'interrupted-job', user_id: user.user._id, tool: 'convertAudio' };
    await jobs.claimSlot({ ...slot, created_at: minutesAgo }, { perUser: 5, queue: 20 });
    const admission = { fields: '{"format":"mp3"}', service: 'convert-audio', input_bytes: 10 };
    await jobs.admit('interrupted-job', { ...admission, period_start: periodStart }, minutesAgo);
    await jobs.claim('interrupted-job', minutesAgo);
    await usageRepository(t.database.db).tryIncrement(
      user.user._id,
      'convert-audio',
      periodStart,
      1,
      3,
    );
    execFileSync('mkdir', ['-p', jobDir(t, 'interrupted-job')]);
    expect(await used(t, token)).toBe(1);

    const restarted = await createTestApp('sqlite', { env: queueEnv, database: t.database });
    apps.unshift(restarted);
    // The embedded queue fails it at start-up; on Redis it is re-queued (its worker died),
    // and its next run fails too, since its upload is gone (storage_unavailable, decision 023).
    const job = await ended(restarted, token, 'interrupted-job');
    const code = queueEnv.REDIS_URL ? 'storage_unavailable' : 'processing_failed';
    expect(job).toMatchObject({ status: 'failed', error: { code } });
    // The failed run's files go just after its state is written.
    await until(() => !existsSync(jobDir(t, 'interrupted-job')), 'the job files to go');
    expect(await used(restarted, token)).toBe(0);
  });
});

describe.skipIf(!hasFfmpeg)('job files', () => {
  it('leave nothing behind in DATA_DIR/tmp', async () => {
    const t = await createTestApp('sqlite', { env: { REDIS_URL: '' } });
    try {
      const { token } = await registerUser(t.app);
      const res = await postForm(t.app, '/api/audio/convertaudio', {
        token,
        fields: { format: 'wav' },
        file: { field: 'audio', content: wav },
      });
      expect(res.statusCode).toBe(200);
      await until(
        () => leftIn(t.database.options.dataDir, 'jobs').length === 0,
        'the delivered job to be forgotten',
      );
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!hasFfmpeg || !redisUrl)('scale-out: a web process without workers', () => {
  it('hands its jobs to a separate `npm run worker` process through Redis', async () => {
    const queueName = `test-worker-${Date.now()}`;
    const t = await createTestApp('sqlite', {
      env: { REDIS_URL: redisUrl!, WORKERS: '0', QUEUE_NAME: queueName },
    });
    // The worker shares the web process's DATA_DIR (its SQLite database and the job files).
    const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));
    const worker = spawn(
      join(repoRoot, 'node_modules/.bin/tsx'),
      ['--conditions=source', join(repoRoot, 'apps/server/src/worker.ts')],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          DATA_DIR: t.database.options.dataDir,
          REDIS_URL: redisUrl!,
          QUEUE_NAME: queueName,
          WORKERS: '1',
          LOG_LEVEL: 'warn',
        },
        stdio: 'ignore',
      },
    );
    try {
      const { token } = await registerUser(t.app);
      const res = await postForm(t.app, '/api/audio/convertaudio', {
        token,
        fields: { format: 'ogg' },
        file: { field: 'audio', content: wav },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="upload.ogg"');
      expect(res.rawPayload.subarray(0, 4).toString()).toBe('OggS');
    } finally {
      worker.kill('SIGTERM');
      await t.close();
    }
  });
});
