// Shared by every bench/*.bench.mjs: start the built server, sign in, run tasks N in flight,
// and write a results table that says when and on what machine it was measured.
import { spawn } from 'node:child_process';
import {
  closeSync,
  mkdtempSync,
  openAsBlob,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Ports 47100 and up: out of the way of dev servers and other people's runs on this machine.
 * BENCH_PORT_BASE moves them, for two runs at once.
 */
export const port = (n) => Number(process.env.BENCH_PORT_BASE ?? 47100) + n;

/**
 * Starts the built Refract server as users do: `scripts/start.sh`, what `npm start`
 * runs (jemalloc or MALLOC_ARENA_MAX, libuv's pool), with the defaults, log level included;
 * the log goes to a file, as it would to journald or a container's log. Only the port, the
 * address and a fresh SQLite database (or `env.DATABASE_URL`) are set, plus `env`: a bench
 * whose subject is a setting passes it there and says so. `nodeArgs` (`--cpu-prof` for a
 * profile) go to node itself (start.sh's NODE_FLAGS). `checkout`: another built checkout's
 * server (an earlier commit, to compare with in the same run).
 */
export async function startRefract(port, env = {}, nodeArgs = [], checkout = root) {
  // A server left on the port (an earlier run's) would answer the health check below, and the
  // bench would measure it instead of the one it starts.
  const taken = await fetch(`http://127.0.0.1:${port}/api/health`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is already in use: stop what listens there first`);
  const dataDir = mkdtempSync(join(tmpdir(), 'refract-bench-'));
  const log = openSync(join(dataDir, 'server.log'), 'a');
  const child = spawn('sh', [join(checkout, 'scripts/start.sh'), 'server'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(nodeArgs.length > 0 ? { NODE_FLAGS: nodeArgs.join(' ') } : {}),
      ...env,
    },
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  const exited = new Promise((r) => child.once('exit', r));
  const base = `http://127.0.0.1:${port}`;
  // Two minutes: on a loaded 2-core machine the server's start has taken over 30 s.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGTERM'); // Never left running behind a failed start.
      throw new Error(`Refract did not start on port ${port}`);
    }
    await sleep(200);
  }
  return {
    base,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function json(res) {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

const post = (url, body, token) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

/** The built server with an unlimited bench admin (ADMIN_EMAIL), signed in. */
/**
 * A bare node:http server in its own process (so it shares no event loop with the load
 * generator), built from `handler`'s source (`(req, res) => …`); resolves once it answers.
 */
export async function startBareServer(port, handler, env = {}) {
  return startScript(
    port,
    `require('node:http').createServer(${handler}).listen(${port}, '127.0.0.1')`,
    env,
  );
}

/** Fastify alone in a process of its own, answering every GET with `body` as JSON; no logger. */
export async function startBareFastify(port, body) {
  return startScript(
    port,
    `const app = require(${JSON.stringify(join(root, 'node_modules/fastify'))})();
    app.get('/*', (req, reply) => reply.type('application/json').send(process.env.BODY));
    app.post('/*', (req, reply) => reply.send('{}'));
    app.listen({ port: ${port}, host: '127.0.0.1' });`,
    { BODY: body },
  );
}

/** Runs `code` in a node process of its own; resolves once something answers on the port. */
async function startScript(port, code, env) {
  const child = spawn(process.execPath, ['-e', code], { env: { ...process.env, ...env } });
  const url = `http://127.0.0.1:${port}/`;
  while (
    !(await fetch(url, { method: 'POST' }).then(
      () => true,
      () => false,
    ))
  )
    await sleep(100);
  return { url, stop: () => child.kill() };
}

export async function startRefractAsAdmin(port, env = {}) {
  const admin = { email: 'bench@example.com', password: 'bench password' };
  const refract = await startRefract(port, {
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    ...env,
  });
  const { token } = await signIn(refract.base, admin.email, admin.password);
  return { ...refract, token };
}

export const BENCH_PASSWORD = 'bench password 1';

/** Signs in; answers `{ token, user }`. */
export const signIn = async (base, email, password = BENCH_PASSWORD) =>
  json(await post(`${base}/api/auth/login`, { email, password }));

/** Signs up an ordinary user (Basic plan, metered like anyone) and returns their token. */
export async function signUp(base, email) {
  const user = { email, password: BENCH_PASSWORD, name: 'Bench' };
  await json(
    await post(`${base}/api/auth/register`, { ...user, favBook: 'Dune', favMeal: 'Soup' }),
  );
  return (await signIn(base, email)).token;
}

/** Posts a file from disk (streamed, not read whole) as multipart; resolves to the result's size. */
export async function postFile(url, token, field, path, fields = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(field, await openAsBlob(path), basename(path));
  const res = await fetch(url, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return (await res.arrayBuffer()).byteLength;
}

/** One batch: every file in one multipart request, followed to its end, the zip read to the end. */
export async function batch(base, token, path, fields, files) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [i, file] of files.entries())
    form.append('file', await openAsBlob(file), `${i}-${basename(file)}`);
  const auth = { authorization: `Bearer ${token}` };
  const created = await fetch(`${base}/api/batch/${path}?files=${files.length}`, {
    method: 'POST',
    body: form,
    headers: auth,
  });
  if (created.status !== 202) throw new Error(`batch: ${created.status} ${await created.text()}`);
  const { batchId } = await created.json();
  for (;;) {
    const state = await (await fetch(`${base}/api/batches/${batchId}`, { headers: auth })).json();
    if (state.status === 'done') {
      if (state.counts.done !== files.length)
        throw new Error(JSON.stringify(state.files.map((f) => f.error)));
      break;
    }
    await sleep(50);
  }
  const zip = await fetch(`${base}/api/batches/${batchId}/zip`, { headers: auth });
  let bytes = 0;
  for await (const chunk of zip.body) bytes += chunk.length;
  return bytes;
}

/** Runs `task` on every item with `concurrency` in flight; resolves to the wall time in seconds. */
export async function inFlight(items, concurrency, task) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Wall time of one run of `task`, in seconds. */
export async function seconds(task) {
  const started = performance.now();
  await task();
  return (performance.now() - started) / 1000;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const min = (xs) => Math.min(...xs);
export const max = (xs) => Math.max(...xs);
export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** "median (min–max)", the way every table reports n ≥ 3 runs: never the best alone. */
export const spread = (xs, digits = 2) =>
  `${median(xs).toFixed(digits)} (${min(xs).toFixed(digits)}–${max(xs).toFixed(digits)})`;
/** The 1-minute load average now, for the line beside each measurement. */
export const load = () => loadavg()[0].toFixed(1);
export const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/** A goal's verdict for a table; a miss stands out. */
export const verdict = (met) => (met ? 'met' : '**not met**');

/**
 * The line under every title: the date and the machine. The machines are shared and noisy,
 * which is why every benchmark compares side by side in one run and reports ratios.
 */
export function measuredOn() {
  const cores = cpus();
  const load = loadavg()[0].toFixed(1);
  return `${new Date().toISOString().slice(0, 10)}, ${cores.length}-core shared machine (${cores[0]?.model.trim()}, load average ${load} at the end of the run), Node ${process.version}. Absolute times are noisy here; the ratios, measured side by side in one run, are the result.`;
}

export function writeResults(name, markdown) {
  const path = fileURLToPath(new URL(`./results/${name}.md`, import.meta.url));
  writeFileSync(path, markdown);
  console.log(markdown);
}

export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database on the PostgreSQL server, dropped afterwards; undefined when unreachable. */
export async function withPostgres(run) {
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `refract_bench_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    return await run(url.href);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** A process's memory from /proc: `kb('VmRSS')` (or VmHWM…), and VmRSS every 20 ms while `task` runs. */
export function memoryOf(pid) {
  const kb = (field) =>
    Number(
      readFileSync(`/proc/${pid}/status`, 'utf8').match(
        new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'),
      )[1],
    );
  return {
    kb,
    async sampled(task) {
      const samples = [];
      const timer = setInterval(() => samples.push(kb('VmRSS')), 20);
      try {
        await task();
      } finally {
        clearInterval(timer); // a failed task must not leave it reading a process since stopped
      }
      return samples;
    },
  };
}
