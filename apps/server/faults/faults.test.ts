import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrationBody } from '../src/test/accounts.js';
import { sineWav, testVideo } from '../src/test/media-fixtures.js';
import { tcpProxy } from '../src/test/tcp-proxy.js';
import {
  createCluster,
  missingServices,
  redisUrl,
  sleep,
  waitReady,
  within,
  type Cluster,
  type Proc,
} from './cluster.js';

/**
 * The fault suite (`npm run test:faults`): two web processes (WORKERS=0) and two
 * workers on the real PostgreSQL and Redis, sharing one DATA_DIR. Each test breaks one thing
 * and checks the outcome: the job's state, its charge, the files on disk, and how long the
 * detection took (printed; the bounds asserted are the promises in docs/operations.md).
 */
const missing = await missingServices();
if (missing) console.log(`fault suite skipped: ${missing}`);

const wav = sineWav(2);
const longVideo = testVideo(30, '640x480');
/** Long enough for its ffmpeg to be caught running, quick to finish once let go. */
const drainVideo = testVideo(30, '320x240');

describe.skipIf(missing !== undefined)('many nodes through faults', () => {
  let c: Cluster;
  let web1: Proc;
  let web2: Proc;
  let workerA: Proc;
  let workerB: Proc;

  beforeAll(async () => {
    c = await createCluster();
    // Started together, with ADMIN_EMAIL set: start-up seeding must not race (idempotent start-up).
    web1 = c.start('web1', 'server', { WORKERS: '0' });
    web2 = c.start('web2', 'server', { WORKERS: '0' });
    workerA = c.start('workerA', 'worker', { WORKERS: '1' });
    workerB = c.start('workerB', 'worker', { WORKERS: '1' });
    await Promise.all([waitReady(web1), waitReady(web2)]);
    await within(240_000, 'workers to start', () =>
      [workerA, workerB].every((w) => w.log.some((line) => line.includes(' worker: '))),
    );
  }, 480_000);
  afterAll(async () => {
    await c?.stop();
    // No refract-faults-* folder is left in the temp directory.
    if (c) expect(existsSync(c.dataDir)).toBe(false);
  });

  async function register(web: Proc) {
    const body = registrationBody();
    const res = await fetch(`${web.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    const { token, user } = (await res.json()) as { token: string; user: { _id: string } };
    const credentials = { email: body.email, password: body.password };
    return { token, id: user._id, auth: { authorization: `Bearer ${token}` }, credentials };
  }
  const login = (web: Proc, user: User) =>
    fetch(`${web.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user.credentials),
      signal: AbortSignal.timeout(30_000),
    });
  type User = Awaited<ReturnType<typeof register>>;

  function form(content: Buffer, format: string, field: string) {
    const body = new FormData();
    body.set('format', format);
    body.set(field, new Blob([content]), 'in');
    return body;
  }

  async function submit(web: Proc, user: User, content: Buffer, video = false) {
    const path = video ? '/api/video/convert-video' : '/api/audio/convertaudio';
    return fetch(`${web.url}${path}?async=1`, {
      method: 'POST',
      headers: user.auth,
      body: form(content, video ? 'webm' : 'mp3', video ? 'video' : 'audio'),
    });
  }

  /** A job's event stream, read to its end: each event's name and data. */
  async function streamOf(web: Proc, user: User, jobId: string) {
    const res = await fetch(`${web.url}/api/jobs/${jobId}/events`, {
      headers: user.auth,
      signal: AbortSignal.timeout(120_000),
    });
    expect(res.status).toBe(200);
    const ended = res.text().then((text) =>
      text
        .split('\n\n')
        .filter(Boolean)
        .map((block) => ({
          event: /^event: (.*)$/m.exec(block)?.[1],
          data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown,
        })),
    );
    return { ended, endedAt: ended.then(() => Date.now()) };
  }
  const job = async (id: string) =>
    (await c.query('SELECT * FROM jobs WHERE id = $1', [id])).rows[0] as
      { status: string; charged: number; attempts: number; error_code: string | null } | undefined;
  const used = async (web: Proc, user: User) =>
    (
      (await (await fetch(`${web.url}/api/user/stats`, { headers: user.auth })).json()) as {
        imagesProcessed: number;
      }
    ).imagesProcessed;
  const ffmpegOf = (jobId: string) =>
    execFileSync('ps', ['-eo', 'pid,ppid,args'])
      .toString()
      .split('\n')
      .filter(
        (line) => line.includes('ffmpeg') && line.includes(jobId) && !line.includes('setpriv'),
      );
  const jobFiles = () => {
    const dir = join(c.dataDir, 'jobs');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  it('starts two web processes together with ADMIN_EMAIL: both ready, one admin', async () => {
    const admins = await c.query('SELECT email FROM users WHERE is_admin = 1');
    expect(admins.rows).toEqual([{ email: 'admin@faults.example.com' }]);
  });

  it('a worker killed with -9 mid-job: its ffmpeg dies, the job is re-queued within 15 s and delivered once', async () => {
    const user = await register(web1);
    const res = await submit(web1, user, longVideo, true);
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    const { value: line } = await within(60_000, 'ffmpeg to run the job', () => ffmpegOf(jobId)[0]);
    const [ffmpegPid, workerPid] = line.trim().split(/\s+/).map(Number);
    // workerB is kept as the survivor (the next test pauses it; the last restarts workerA).
    if (c.nodePid(workerB) === workerPid) [workerA, workerB] = [workerB, workerA];
    process.kill(workerPid!, 'SIGKILL');
    const killedAt = Date.now();
    await within(5_000, 'the orphaned ffmpeg to die', () => {
      try {
        process.kill(ffmpegPid!, 0);
        return false;
      } catch {
        return true;
      }
    });
    const { tookMs } = await within(20_000, 'the job to be re-queued', async () => {
      const row = await job(jobId);
      return row && (row.status === 'queued' || row.attempts === 2);
    });
    console.log(
      `dead worker detected and its job re-queued ${Date.now() - killedAt} ms after kill (poll ${tookMs} ms)`,
    );
    expect(Date.now() - killedAt).toBeLessThan(15_000 + 1_000);
    const done = await within(120_000, 'the job to be done', async () => {
      const row = await job(jobId);
      return row && ['done', 'failed'].includes(row.status) ? row : undefined;
    });
    expect(done.value).toMatchObject({ status: 'done', charged: 1 });
    expect(await used(web2, user)).toBe(1);
    const result = await fetch(`${web2.url}/api/jobs/${jobId}/result`, { headers: user.auth });
    expect(result.status).toBe(200);
    expect(
      Buffer.from(await result.arrayBuffer())
        .subarray(0, 4)
        .toString('hex'),
    ).toBe('1a45dfa3');
  }, 240_000);

  it('Redis loses its queue: the reconciler wakes the waiting job within a minute', async () => {
    // The surviving worker is paused so the job waits, then the queue's keys are wiped.
    const paused = c.nodePid(workerB);
    process.kill(paused, 'SIGSTOP');
    const user = await register(web1);
    const res = await submit(web1, user, wav);
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    const queue = new Queue(c.queueName, { connection: { url: redisUrl } });
    await queue.obliterate({ force: true });
    await queue.close();
    process.kill(paused, 'SIGCONT');
    const { tookMs } = await within(60_000, 'the lost job to be done', async () => {
      const row = await job(jobId);
      return row?.status === 'done';
    });
    console.log(`job lost from Redis delivered after ${tookMs} ms`);
    expect(await used(web1, user)).toBe(1);
  }, 90_000);

  it('a web process on an unreachable Redis: 503 queue_unavailable, not ready, nothing charged, others unaffected; sign-in quick; an idle worker stops at once', async () => {
    const broken = c.start('web-broken-redis', 'server', {
      WORKERS: '0',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    // And an idle worker on the same dead Redis (stopped below: at once, nothing runs).
    const idleWorker = c.start('worker-broken-redis', 'worker', {
      WORKERS: '1',
      REDIS_URL: 'redis://127.0.0.1:1',
      SHUTDOWN_TIMEOUT: '20',
    });
    await within(240_000, 'the broken web to answer', async () => {
      const res = await fetch(`${broken.url}/api/health/live`).catch(() => undefined);
      return res?.status === 200;
    });
    const ready = await fetch(`${broken.url}/api/health/ready`);
    expect(ready.status).toBe(503);
    const victim = await register(broken);
    for (let i = 0; i < 3; i++) {
      const refused = await submit(broken, victim, wav);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(((await refused.json()) as { code: string }).code).toBe('queue_unavailable');
    }
    expect(await used(broken, victim)).toBe(0);
    // Sign-in counts its attempts in this process's memory meanwhile: under a second each, and
    // the outage logged once, without a stack trace.
    for (let i = 0; i < 3; i++) {
      const startedAt = Date.now();
      expect((await login(broken, victim)).status).toBe(200);
      const tookMs = Date.now() - startedAt;
      console.log(`sign-in on a process whose Redis is down: ${tookMs} ms`);
      expect(tookMs).toBeLessThan(1_000);
    }
    // One per limit (sign-ups counted when the victim registered, sign-ins), not per attempt.
    const limiterLines = broken.log.filter((line) => line.includes('rate limits'));
    expect(limiterLines.length).toBeLessThanOrEqual(2);
    for (const line of limiterLines) expect(line).not.toMatch(/stack/);
    expect(
      (await c.query("SELECT count(*)::int AS n FROM jobs WHERE status IN ('receiving','queued')"))
        .rows[0].n,
    ).toBe(0);
    // A healthy user on a healthy process is served.
    const healthy = await register(web2);
    expect((await submit(web2, healthy, wav)).status).toBe(202);
    process.kill(c.nodePid(broken), 'SIGKILL');

    await within(240_000, 'the idle worker to start', () =>
      idleWorker.log.some((line) => line.includes(' worker: ')),
    );
    const exited = new Promise<number | null>((resolve) => idleWorker.child.once('exit', resolve));
    const termAt = Date.now();
    process.kill(c.nodePid(idleWorker), 'SIGTERM');
    expect(await exited).toBe(0);
    console.log(`idle worker on a dead Redis stopped ${Date.now() - termAt} ms after SIGTERM`);
    // Not SHUTDOWN_TIMEOUT (20 s): nothing ran, so nothing was waited for.
    expect(Date.now() - termAt).toBeLessThan(3_000);
  }, 400_000);

  it('a worker stopped while it starts exits cleanly, before taking any job', async () => {
    const starting = c.start('starting', 'worker', { WORKERS: '1' });
    const exited = new Promise<number | null>((resolve) => starting.child.once('exit', resolve));
    // Its first line says it is starting: the stop comes while it loads, opens the database
    // and probes its engines (16 s under load).
    await within(120_000, 'the worker to begin', () =>
      starting.log.some((line) => line.includes(': starting')),
    );
    process.kill(c.nodePid(starting), 'SIGTERM');
    expect(await exited).toBe(0);
    expect(starting.log.join('\n')).toMatch(/SIGTERM during start-up, before any work was taken/);
    expect(starting.log.some((line) => line.includes(' worker: '))).toBe(false);
  }, 400_000);

  it('a web process killed during a waiting request: the job is delivered and found in GET /api/jobs', async () => {
    const user = await register(web2);
    const waiting = fetch(`${web2.url}/api/video/convert-video`, {
      method: 'POST',
      headers: user.auth,
      body: form(testVideo(8, '320x240'), 'webm', 'video'),
    }).catch(() => undefined);
    const { value: running } = await within(60_000, 'the waiting job to run', async () => {
      const rows = await c.query("SELECT id FROM jobs WHERE user_id = $1 AND status = 'running'", [
        user.id,
      ]);
      return rows.rows[0]?.id as string | undefined;
    });
    process.kill(c.nodePid(web2), 'SIGKILL');
    await waiting;
    await within(120_000, 'the job to end', async () => (await job(running))?.status === 'done');
    const list = (await (await fetch(`${web1.url}/api/jobs`, { headers: user.auth })).json()) as {
      jobs: { id: string; resultUrl: string | null }[];
    };
    expect(list.jobs[0]).toMatchObject({ id: running, resultUrl: `/api/jobs/${running}/result` });
    const file = await fetch(`${web1.url}${list.jobs[0]!.resultUrl}`, { headers: user.auth });
    expect(file.status).toBe(200);
    expect(await used(web1, user)).toBe(1);
    web2 = c.start('web2-restarted', 'server', { WORKERS: '0' });
    await waitReady(web2);
  }, 240_000);

  it('a web process killed mid-upload: its slot and files are gone after the grace period', async () => {
    const user = await register(web1);
    const boundary = 'faultsuiteboundary';
    const head = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="format"\r\n\r\nmp3\r\n--${boundary}\r\ncontent-disposition: form-data; name="audio"; filename="in"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    );
    const upload = httpRequest(`${web1.url}/api/audio/convertaudio?async=1`, {
      method: 'POST',
      headers: { ...user.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    upload.on('error', () => {});
    upload.write(head);
    upload.write(wav.subarray(0, 100_000));
    const { value: slot } = await within(30_000, 'the upload to reach disk', async () => {
      const rows = await c.query(
        "SELECT id FROM jobs WHERE user_id = $1 AND status = 'receiving'",
        [user.id],
      );
      const id = rows.rows[0]?.id as string | undefined;
      return id && existsSync(join(c.dataDir, 'jobs', id, 'input')) ? id : undefined;
    });
    process.kill(c.nodePid(web1), 'SIGKILL');
    upload.destroy();
    const killedAt = Date.now();
    // UPLOAD_TIMEOUT (5 s) + the margin (10 s) for the slot; LEFTOVER_GRACE (5 s) for files.
    await sleep(16_000);
    web1 = c.start('web1-restarted', 'server', { WORKERS: '0' });
    await waitReady(web1);
    const { tookMs } = await within(
      30_000,
      'the slot and its files to go',
      async () => !(await job(slot)) && !jobFiles().includes(slot),
    );
    console.log(
      `mid-upload leftovers removed ${Date.now() - killedAt} ms after the kill (after restart: ${tookMs} ms)`,
    );
    expect(await used(web1, user)).toBe(0);
  }, 400_000);

  it('a worker stopped with SIGTERM mid-job hands it back: another worker delivers it, charged once', async () => {
    workerA = c.start('workerA-2', 'worker', { WORKERS: '1' });
    await within(240_000, 'the new worker', () => workerA.log.some((l) => l.includes(' worker: ')));
    const user = await register(web1);
    const res = await submit(web1, user, longVideo, true);
    const { jobId } = (await res.json()) as { jobId: string };
    const { value: line } = await within(60_000, 'ffmpeg to run the job', () => ffmpegOf(jobId)[0]);
    const workerPid = Number(line.trim().split(/\s+/)[1]);
    const stopping = [workerA, workerB].find((w) => c.nodePid(w) === workerPid)!;
    const exited = new Promise<number | null>((resolve) => stopping.child.once('exit', resolve));
    const termAt = Date.now();
    process.kill(workerPid, 'SIGTERM');
    await exited;
    console.log(`worker stopped ${Date.now() - termAt} ms after SIGTERM (SHUTDOWN_TIMEOUT 2 s)`);
    expect(Date.now() - termAt).toBeLessThan(2_000 + 5_000 + 3_000);
    const done = await within(180_000, 'the handed-back job to end', async () => {
      const row = await job(jobId);
      return row && ['done', 'failed'].includes(row.status) ? row : undefined;
    });
    expect(done.value).toMatchObject({ status: 'done', charged: 1, attempts: 1 });
    expect(await used(web1, user)).toBe(1);
  }, 300_000);

  it('a web process stopped with SIGTERM drains: short requests finish, the rest get 503, then it exits', async () => {
    // Two workers again (the last test stopped one): the long job must not hold up the short.
    const workerC = c.start('workerC', 'worker', { WORKERS: '1' });
    const draining = c.start('web-drain', 'server', {
      WORKERS: '0',
      SHUTDOWN_TIMEOUT: '6',
      // The slow upload below must still be open when the drain's deadline comes.
      UPLOAD_TIMEOUT: '60',
      LEFTOVER_GRACE: '60',
    });
    await waitReady(draining);
    await within(240_000, 'the new worker', () => workerC.log.some((l) => l.includes(' worker: ')));
    const user = await register(draining);
    const running = (service: string) => async () => {
      const rows = await c.query(
        "SELECT id FROM jobs WHERE user_id = $1 AND service = $2 AND status IN ('running', 'done')",
        [user.id, service],
      );
      return rows.rows[0]?.id as string | undefined;
    };
    // In flight at SIGTERM: a long waiting job (still encoding at the deadline), a short one
    // (done well within SHUTDOWN_TIMEOUT) and an upload that never completes.
    const long = fetch(`${draining.url}/api/video/convert-video`, {
      method: 'POST',
      headers: user.auth,
      body: form(drainVideo, 'webm', 'video'),
    });
    const { value: longJob } = await within(
      60_000,
      'the long job to run',
      running('convert-video'),
    );
    // Its ffmpeg is paused, so it is surely still running at the deadline (resumed below).
    const { value: line } = await within(60_000, 'its ffmpeg', () => ffmpegOf(longJob)[0]);
    const longFfmpeg = Number(line.trim().split(/\s+/)[0]);
    process.kill(longFfmpeg, 'SIGSTOP');
    const upload = slowUpload(draining, user);
    const { value: cutSlot } = await within(30_000, 'the upload to start', async () => {
      const rows = await c.query(
        "SELECT id FROM jobs WHERE user_id = $1 AND status = 'receiving'",
        [user.id],
      );
      return rows.rows[0]?.id as string | undefined;
    });
    const short = fetch(`${draining.url}/api/audio/convertaudio`, {
      method: 'POST',
      headers: user.auth,
      body: form(wav, 'mp3', 'audio'),
    });
    await within(30_000, 'the short job to be queued', async () => {
      const rows = await c.query(
        "SELECT id FROM jobs WHERE user_id = $1 AND service = 'convert-audio' AND status <> 'receiving'",
        [user.id],
      );
      return rows.rows.length > 0;
    });
    const stream = await streamOf(draining, user, longJob);
    const exited = new Promise<number | null>((resolve) => draining.child.once('exit', resolve));
    const termAt = Date.now();
    process.kill(c.nodePid(draining), 'SIGTERM');
    // Its event stream ends at once with a `retry` event, well before the drain's deadline.
    expect((await stream.ended).at(-1)).toEqual({
      event: 'retry',
      data: { reason: 'server_restarting', retryAfterMs: 1000 },
    });
    console.log(`event stream told to retry ${(await stream.endedAt) - termAt} ms after SIGTERM`);
    expect((await stream.endedAt) - termAt).toBeLessThan(6_000);

    const shortRes = await short;
    expect(shortRes.status).toBe(200);
    expect(Buffer.from(await shortRes.arrayBuffer()).length).toBeGreaterThan(0);
    // New requests are not served (the socket is closed, or Fastify answers 503 while closing).
    const late = await fetch(`${draining.url}/api/health/live`).catch(() => undefined);
    expect(late === undefined || late.status === 503).toBe(true);
    // Meanwhile the other web process serves as usual.
    const other = await register(web1);
    expect((await fetch(`${web1.url}/api/user/stats`, { headers: other.auth })).status).toBe(200);

    const longRes = await long;
    expect(longRes.status).toBe(503);
    expect(((await longRes.json()) as { code: string }).code).toBe('service_unavailable');
    expect((await upload).status).toBe(503);
    expect(await exited).toBe(0);
    console.log(
      `web process exited ${Date.now() - termAt} ms after SIGTERM (SHUTDOWN_TIMEOUT 6 s)`,
    );
    expect(Date.now() - termAt).toBeLessThan(6_000 + 5_000);

    process.kill(longFfmpeg, 'SIGCONT');
    // The long job goes on in a worker; its result waits in the user's recent jobs.
    await within(
      180_000,
      'the long job to end',
      async () => (await job(longJob))?.status === 'done',
    );
    const list = (await (await fetch(`${web1.url}/api/jobs`, { headers: user.auth })).json()) as {
      jobs: { id: string; resultUrl: string | null }[];
    };
    expect(list.jobs.find((j) => j.id === longJob)?.resultUrl).toBe(`/api/jobs/${longJob}/result`);
    expect(
      (await fetch(`${web1.url}/api/jobs/${longJob}/result`, { headers: user.auth })).status,
    ).toBe(200);
    // The cut upload's slot and partial file went with the shutdown.
    const slots = await c.query(
      "SELECT id FROM jobs WHERE user_id = $1 AND status IN ('receiving', 'queued')",
      [user.id],
    );
    expect(slots.rows).toEqual([]);
    expect(jobFiles()).not.toContain(cutSlot);
    // The long wait was answered 503, so its job is free although delivered: only
    // the short job is charged.
    expect(await job(longJob)).toMatchObject({ charged: 0 });
    expect(await used(web1, user)).toBe(1);
  }, 300_000);

  it('a web process and a worker on another DATA_DIR: the worker refuses to start, the web is not ready and refuses jobs with storage_unavailable', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'refract-faults-other-'));
    try {
      const strayWorker = c.start('worker-other-volume', 'worker', {
        WORKERS: '1',
        DATA_DIR: elsewhere,
      });
      const stray = c.start('web-other-volume', 'server', { WORKERS: '0', DATA_DIR: elsewhere });
      const code = await new Promise<number | null>((resolve) =>
        strayWorker.child.once('exit', resolve),
      );
      expect(code).not.toBe(0);
      expect(strayWorker.log.join('\n')).toMatch(/DATA_DIR is not the shared one/);

      await within(240_000, 'the stray web to answer', async () => {
        const res = await fetch(`${stray.url}/api/health/live`).catch(() => undefined);
        return res?.status === 200;
      });
      const ready = await fetch(`${stray.url}/api/health/ready`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as {
        checks: { dataDir: { ok: boolean; reason?: string }; database: { ok: boolean } };
      };
      expect(body.checks.database.ok).toBe(true);
      expect(body.checks.dataDir.ok).toBe(false);
      expect(body.checks.dataDir.reason).toMatch(/does not see the volume the others share/);

      // A job delivered on the shared volume: the stray process cannot send it, and says so.
      const user = await register(web1);
      const res = await submit(web1, user, wav);
      const { jobId } = (await res.json()) as { jobId: string };
      await within(60_000, 'the job to be done', async () => (await job(jobId))?.status === 'done');
      const result = await fetch(`${stray.url}/api/jobs/${jobId}/result`, { headers: user.auth });
      expect(result.status).toBe(503);
      expect(((await result.json()) as { code: string }).code).toBe('storage_unavailable');

      // A new job through it is refused before its upload is read: nothing charged or written.
      const refused = await submit(stray, user, wav);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(((await refused.json()) as { code: string }).code).toBe('storage_unavailable');
      expect(await used(web1, user)).toBe(1);
      expect(
        existsSync(join(elsewhere, 'jobs')) ? readdirSync(join(elsewhere, 'jobs')) : [],
      ).toEqual([]);
      process.kill(c.nodePid(stray), 'SIGKILL');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 400_000);

  it('a web process whose database goes away: not ready, 503 service_unavailable within the deadlines, served again once back', async () => {
    const target = new URL(c.databaseUrl);
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(c.databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const cut = c.start('web-db-proxied', 'server', {
      WORKERS: '0',
      DATABASE_URL: proxied.toString(),
      DB_QUERY_TIMEOUT: '2',
    });
    try {
      await waitReady(cut);
      const user = await register(cut);
      const stats = () =>
        fetch(`${cut.url}/api/user/stats`, {
          headers: user.auth,
          signal: AbortSignal.timeout(30_000),
        });
      expect((await stats()).status).toBe(200);

      // Refused (the database is down): at once.
      await proxy.refuse();
      const down = await stats();
      expect(down.status).toBe(503);
      expect(((await down.json()) as { code: string }).code).toBe('service_unavailable');
      // A small body: the refusal comes before the upload is read and closes the connection,
      // so a body larger than the socket's buffers can end in EPIPE before the 503 is read.
      const refusedSubmit = await submit(cut, user, wav.subarray(0, 4096));
      expect(refusedSubmit.status).toBe(503);
      const readyAt = Date.now();
      expect((await fetch(`${cut.url}/api/health/ready`)).status).toBe(503);
      expect(Date.now() - readyAt).toBeLessThan(2_000 + 1_000);
      expect((await fetch(`${cut.url}/api/health/live`)).status).toBe(200);
      // Another process on the database is unaffected.
      expect((await fetch(`${web1.url}/api/health/ready`)).status).toBe(200);
      await proxy.restore();
      await waitReady(cut, 30_000);
      expect((await stats()).status).toBe(200);

      // Silent (packets dropped): a deadline ends the wait (connect 5 s, query 2 + 2 s).
      proxy.stall();
      const stalledAt = Date.now();
      const silent = await stats();
      console.log(
        `request on a silent database answered ${silent.status} after ${Date.now() - stalledAt} ms`,
      );
      expect(silent.status).toBe(503);
      expect(Date.now() - stalledAt).toBeLessThan(5_000 + 3_000);
      await proxy.restore();
      await waitReady(cut, 30_000);
      expect((await stats()).status).toBe(200);
      // The process lived through it, and nothing was charged or left waiting.
      expect(cut.child.exitCode).toBeNull();
      expect(await used(cut, user)).toBe(0);
      expect(
        (await c.query('SELECT count(*)::int AS n FROM jobs WHERE user_id = $1', [user.id])).rows[0]
          .n,
      ).toBe(0);
    } finally {
      process.kill(c.nodePid(cut), 'SIGKILL');
      await proxy.close();
    }
  }, 400_000);

  it('the database down at start: one line naming DATABASE_URL, retried for DB_CONNECT_TIMEOUT, then up once it answers or stopped in one line', async () => {
    const target = new URL(c.databaseUrl);
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(c.databaseUrl);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    await proxy.refuse();
    const patient = c.start('web-db-late', 'server', {
      WORKERS: '0',
      DATABASE_URL: proxied.toString(),
      DB_CONNECT_TIMEOUT: '120',
    });
    const impatient = c.start('worker-db-never', 'worker', {
      WORKERS: '1',
      DATABASE_URL: proxied.toString(),
      DB_CONNECT_TIMEOUT: '1',
    });
    try {
      const code = await new Promise<number | null>((resolve) =>
        impatient.child.once('exit', resolve),
      );
      expect(code).toBe(1);
      const stopped = impatient.log.filter((line) => line.includes('DB_CONNECT_TIMEOUT'));
      expect(stopped.at(-1)).toMatch(
        new RegExp(`did not answer within DB_CONNECT_TIMEOUT .*127\\.0\\.0\\.1:${proxy.port}`),
      );
      expect(impatient.log.join('\n')).not.toMatch(/^\s+at /m);

      const { value: waiting } = await within(240_000, 'the web to wait for its database', () =>
        patient.log.find((line) => line.includes('does not answer')),
      );
      expect(waiting).toMatch(new RegExp(`DATABASE_URL \\(postgres://[^)]*:${proxy.port}/`));
      expect(waiting).not.toMatch(/fault-suite|password/);
      await proxy.restore();
      await waitReady(patient, 60_000);
      expect(patient.log.filter((line) => line.includes('does not answer'))).toHaveLength(1);
      expect(patient.log.join('\n')).not.toMatch(/^\s+at /m);
    } finally {
      process.kill(c.nodePid(patient), 'SIGKILL');
      await proxy.close();
    }
  }, 400_000);

  it('the database refuses connections (55000, 57P01): 503 with Retry-After everywhere, the waiting request told 503 is not charged, the running job is not restarted', async () => {
    const user = await register(web1);
    const waiting = fetch(`${web1.url}/api/video/convert-video`, {
      method: 'POST',
      headers: user.auth,
      body: form(longVideo, 'webm', 'video'),
    });
    const { value: line } = await within(60_000, 'the waiting job to run', async () => {
      const rows = await c.query("SELECT id FROM jobs WHERE user_id = $1 AND status = 'running'", [
        user.id,
      ]);
      const id = rows.rows[0]?.id as string | undefined;
      return id && ffmpegOf(id)[0] ? { id, line: ffmpegOf(id)[0]! } : undefined;
    });
    const jobId = line.id;
    // Paused, so the encode is surely still under way when the database is back.
    const ffmpegPid = Number(line.line.trim().split(/\s+/)[0]);
    process.kill(ffmpegPid, 'SIGSTOP');
    const stream = await streamOf(web2, user, jobId);
    const database = new URL(c.databaseUrl).pathname.slice(1);
    const ours = (await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    await c.db.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    await c.db.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> $2',
      [database, ours],
    );
    const cutAt = Date.now();
    try {
      const refusal = async (res: Response) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        code: ((await res.json()) as { code: string }).code,
      });
      const unavailable = { status: 503, retryAfter: '10', code: 'service_unavailable' };
      expect(await refusal(await waiting)).toEqual(unavailable);
      expect(await refusal(await login(web1, user))).toEqual(unavailable);
      expect(
        await refusal(await fetch(`${web2.url}/api/jobs/${jobId}`, { headers: user.auth })),
      ).toEqual(unavailable);
      expect(await refusal(await submit(web2, user, wav.subarray(0, 4096)))).toEqual(unavailable);
      // The event stream ends with a `retry` event that says why, not silently.
      const events = await stream.ended;
      expect(events.at(-1)).toEqual({
        event: 'retry',
        data: { reason: 'database_unavailable', retryAfterMs: 5000 },
      });
      // Longer than a silent runner is given (10 s), so a re-queue would happen if it could.
      await sleep(Math.max(0, 12_000 - (Date.now() - cutAt)));
    } finally {
      await c.db.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    }
    const backAt = Date.now();
    console.log(`database refused connections for ${backAt - cutAt} ms`);
    expect((await login(web1, user)).status).toBe(200);
    // The worker lived through it and its ffmpeg runs: the job is not restarted; its runner
    // renews the heartbeat instead, through more than a silent runner's time and a check.
    await sleep(15_000);
    const kept = (
      await c.query('SELECT status, attempts, updated_at FROM jobs WHERE id = $1', [jobId])
    ).rows[0] as { status: string; attempts: number; updated_at: string };
    expect(kept).toMatchObject({ status: 'running', attempts: 1 });
    expect(Date.parse(kept.updated_at)).toBeGreaterThan(backAt);
    expect(() => process.kill(ffmpegPid, 0)).not.toThrow();
    process.kill(ffmpegPid, 'SIGCONT');
    const done = await within(180_000, 'the job to end', async () => {
      const row = await job(jobId);
      return row && ['done', 'failed'].includes(row.status) ? row : undefined;
    });
    // Delivered to the user's recent jobs, free: they were told 503.
    expect(done.value).toMatchObject({ status: 'done', charged: 0 });
    expect(await used(web1, user)).toBe(0);
    const result = await fetch(`${web2.url}/api/jobs/${jobId}/result`, { headers: user.auth });
    expect(result.status).toBe(200);
  }, 300_000);

  /** An upload that sends its first bytes and then nothing: resolves with the answer it gets. */
  function slowUpload(web: Proc, user: User) {
    const boundary = 'faultsuiteslowupload';
    const head = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="format"\r\n\r\nmp3\r\n--${boundary}\r\ncontent-disposition: form-data; name="audio"; filename="in"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    );
    return new Promise<{ status: number | undefined }>((resolve) => {
      const req = httpRequest(`${web.url}/api/audio/convertaudio?async=1`, {
        method: 'POST',
        headers: { ...user.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode });
      });
      req.on('error', () => resolve({ status: undefined }));
      req.write(head);
      req.write(wav.subarray(0, 100_000));
    });
  }
});
