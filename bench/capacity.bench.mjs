// Capacity of one machine: simulated users, each going round sign-in, plans, stats, an image
// convert of a 2 MB photo and a 5 s audio job (waiting for its MP3), with a second's thought
// between rounds. Users are added step by step until the p95 of any step passes 1 s (or twice
// its one-user p95, for media work near a second) or a request fails. Run on SQLite (one
// process) and on PostgreSQL + Redis (a web process with WORKERS=0 and one worker). The load
// generator runs on the same 2 cores as the server.
import { spawn } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { photo, wav } from './fixtures.mjs';
import * as lib from './lib.mjs';

const LEVELS = [1, 2, 4, 6, 8, 12, 16, 24, 32, 48];
const SECONDS_PER_LEVEL = Number(process.env.CAPACITY_SECONDS ?? 20); // shorter for a trial run
const THINK_MS = 1000;
const P95_LIMIT_MS = 1000;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/7';
const TICKS = 100; // Linux's USER_HZ: /proc's CPU times are in these

// A 2 MB photo: 8 MP (3264×2448, a phone camera's size) of the bench's photo-like texture.
const photoPath = await photo(7, 3264, 2448);
const audioPath = await wav(5);
const [photoBlob, audioBlob] = await Promise.all([openAsBlob(photoPath), openAsBlob(audioPath)]);

async function call(base, path, { token, body, form } = {}) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  if (body) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method: body || form ? 'POST' : 'GET',
    headers,
    body: body ? JSON.stringify(body) : form,
  });
  const bytes = await res.arrayBuffer();
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${Buffer.from(bytes)}`);
  return bytes;
}

const upload = (field, blob, name, fields) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append(field, blob, name);
  return form;
};

/** One round of a user's visit; each step's time goes to `times[step]`. */
const STEPS = {
  'sign-in': (base, user) =>
    call(base, '/api/auth/login', { body: { email: user.email, password: lib.BENCH_PASSWORD } }),
  plans: (base) => call(base, '/api/subscriptions/plans'),
  stats: (base, user) => call(base, '/api/user/stats', { token: user.token }),
  'image convert (2 MB JPEG → WebP)': (base, user) =>
    call(base, '/api/convert', {
      token: user.token,
      form: upload('image', photoBlob, basename(photoPath), { format: 'webp' }),
    }),
  'audio job (5 s WAV → MP3, waiting)': (base, user) =>
    call(base, '/api/audio/convertaudio', {
      token: user.token,
      form: upload('audio', audioBlob, basename(audioPath), { format: 'mp3' }),
    }),
};

/** Users on the Business plan (unlimited uses), signed up and granted by the bench admin. */
async function makeUsers(refract, count) {
  const plans = JSON.parse(Buffer.from(await call(refract.base, '/api/subscriptions/plans')));
  const business = plans.find((plan) => plan.name === 'Business');
  const users = [];
  for (let i = 0; i < count; i += 1) {
    const email = `capacity-${i}@example.com`;
    await lib.signUp(refract.base, email);
    const { token, user: me } = await lib.signIn(refract.base, email);
    await call(refract.base, `/api/admin/users/${me._id}/grant`, {
      token: refract.token,
      body: { planId: business._id, months: 1 },
    });
    users.push({ email, token });
  }
  return users;
}

/** CPU seconds (self and waited-for children such as ffmpeg) and RSS of a process. */
function usage(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const cpu = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / TICKS;
  return { cpu, rssMb: lib.memoryOf(pid).kb('VmRSS') / 1024 };
}

/** Runs `users.length` users for a level's time; answers each step's p95, req/s and errors. */
async function runLevel(base, users, pids) {
  const times = Object.fromEntries(Object.keys(STEPS).map((step) => [step, []]));
  let errors = 0;
  let firstError;
  const before = pids.map(usage);
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(
      peakRss,
      pids.map(usage).reduce((sum, u) => sum + u.rssMb, 0),
    );
  }, 500);
  const started = performance.now();
  const end = started + SECONDS_PER_LEVEL * 1000;
  await Promise.all(
    users.map(async (user, i) => {
      await lib.sleep((THINK_MS * i) / users.length); // spread the users' starts
      while (performance.now() < end) {
        for (const [step, run] of Object.entries(STEPS)) {
          const t0 = performance.now();
          try {
            await run(base, user);
            times[step].push(performance.now() - t0);
          } catch (err) {
            errors += 1;
            firstError ??= err.message.slice(0, 160);
          }
        }
        await lib.sleep(THINK_MS);
      }
    }),
  );
  clearInterval(sampler);
  const wall = (performance.now() - started) / 1000;
  const after = pids.map(usage);
  const cpu = after.reduce((sum, u, i) => sum + u.cpu - before[i].cpu, 0) / wall;
  const steps = Object.entries(times).map(([step, ms]) => ({
    step,
    p95: ms.length ? lib.percentile(ms, 0.95) : Infinity,
    perSecond: ms.length / wall,
  }));
  return { users: users.length, steps, errors, firstError, cpu, peakRss };
}

/** Adds users level by level until a step's p95 passes the limit or a request fails. */
async function ramp(label, refract, pids) {
  const users = await makeUsers(refract, LEVELS.at(-1));
  const levels = [];
  let limits;
  for (const count of LEVELS) {
    const level = await runLevel(refract.base, users.slice(0, count), pids);
    // A step whose own work takes near 1 s for one user (an 8 MP WebP encode on a busy core)
    // cannot stay under 1 s at any load; for it, "slowed" means twice its time for one user.
    limits ??= level.steps.map((s) => Math.max(P95_LIMIT_MS, 2 * s.p95));
    level.over = level.steps.filter((s, i) => s.p95 > limits[i]).map((s) => s.step);
    levels.push(level);
    console.log(
      `${label}: ${count} users, over: ${level.over.join(', ') || 'none'}, ${level.errors} errors`,
    );
    if (level.over.length > 0 || level.errors > 0) break;
  }
  return { levels, limits };
}

function startWorker(env) {
  const child = spawn(
    process.execPath,
    [
      '--require',
      join(lib.root, 'apps/server/dist/thread-pool.cjs'),
      join(lib.root, 'apps/server/dist/worker.js'),
    ],
    {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return { pid: child.pid, stop: () => new Promise((r) => child.once('exit', r).kill('SIGTERM')) };
}

async function onSqlite() {
  const refract = await lib.startRefractAsAdmin(lib.port(40), { SIGN_UP_LIMIT: '1000' });
  try {
    return await ramp('SQLite', refract, [refract.pid]);
  } finally {
    await refract.stop();
  }
}

async function onPostgresAndRedis(url) {
  const dataDir = mkdtempSync(join(tmpdir(), 'refract-capacity-'));
  const shared = { DATABASE_URL: url, REDIS_URL, DATA_DIR: dataDir };
  const refract = await lib.startRefractAsAdmin(lib.port(41), {
    ...shared,
    WORKERS: '0',
    SIGN_UP_LIMIT: '1000',
  });
  const worker = startWorker({ ...shared, WORKERS: '1' });
  try {
    return await ramp('PostgreSQL + Redis', refract, [refract.pid, worker.pid]);
  } finally {
    await worker.stop();
    await refract.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function table(label, { levels, limits }) {
  const held = levels.filter((l) => l.errors === 0 && l.over.length === 0);
  const last = levels.at(-1);
  const stepNames = Object.keys(STEPS);
  const head = `| users | ${stepNames.map((s) => `${s} p95 ms (req/s)`).join(' | ')} | errors | server CPU (cores) | server RSS peak MB |`;
  const rows = levels.map(
    (l) =>
      `| ${l.users} | ${l.steps.map((s) => `${s.p95.toFixed(0)} (${s.perSecond.toFixed(2)})`).join(' | ')} | ${l.errors} | ${l.cpu.toFixed(2)} | ${l.peakRss.toFixed(0)} |`,
  );
  const stop =
    last.errors > 0
      ? `stopped by errors: ${last.firstError}`
      : held.length === levels.length
        ? `every level held, up to ${last.users} users (the ramp's end)`
        : `stopped when the p95 of ${last.over.join(', ')} passed its limit`;
  const limitList = Object.keys(STEPS)
    .map((step, i) => `${step} ${limits[i].toFixed(0)} ms`)
    .join(', ');
  return [
    `## ${label}: ${held.at(-1)?.users ?? 0} users held`,
    '',
    `${stop}. p95 limits: ${limitList}.`,
    '',
    head,
    `|---|${stepNames.map(() => '---|').join('')}---|---|---|`,
    ...rows,
    '',
  ].join('\n');
}

const sqlite = await onSqlite();
const postgres = await lib.withPostgres(onPostgresAndRedis);
const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
lib.writeResults(
  'capacity',
  [
    '# Capacity: simulated users on one machine',
    '',
    lib.measuredOn(),
    '',
    `Each user goes round: sign in, plans, stats, an image convert of a ${(statSync(photoPath).size / 1e6).toFixed(1)} MB JPEG (3264×2448) to WebP,`,
    `a 5 s WAV to MP3 (waiting for the file), then thinks for ${THINK_MS / 1000} s. Users are added at ${LEVELS.join(', ')},`,
    `${SECONDS_PER_LEVEL} s a level, until any step's p95 passes ${P95_LIMIT_MS} ms (or twice its one-user p95 when that is more: a`,
    'media step whose own work takes near a second) or a request fails. All users are on the',
    'Business plan (unlimited uses), so quotas never refuse. **The load generator (this script, Node fetch)',
    'runs on the same 2 cores as the server**: every figure is lower than a separate client would see.',
    `CPU is the server's (and the worker's, with its ffmpeg children) in cores; load average at the end: ${load}.`,
    '',
    table('SQLite, one process (WORKERS default)', sqlite),
    postgres
      ? table('PostgreSQL + Redis, a web process (WORKERS=0) and one worker (WORKERS=1)', postgres)
      : `## PostgreSQL + Redis: not run, no server reachable at ${new URL(lib.PG_URL).host}\n`,
  ].join('\n'),
);
