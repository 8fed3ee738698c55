import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Starts the built Refract server on a fresh SQLite database; resolves once it answers. */
export async function startRefract(port, env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'refract-bench-'));
  const child = spawn(process.execPath, [join(root, 'apps/server/dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Requests per second and p99 latency from `concurrency` keep-alive loops for `ms`. */
export async function load(url, { concurrency = 16, ms = 3000, headers = {} } = {}) {
  const latencies = [];
  const end = Date.now() + ms;
  async function worker() {
    while (Date.now() < end) {
      const start = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      latencies.push(performance.now() - start);
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / seconds,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  };
}

export function writeResults(name, markdown) {
  const path = fileURLToPath(new URL(`./results/${name}.md`, import.meta.url));
  writeFileSync(path, markdown);
  console.log(markdown);
}

/** The built server with an unlimited bench admin (ADMIN_EMAIL), signed in. */
export async function startRefractAsAdmin(port) {
  const admin = { email: 'bench@example.com', password: 'bench password' };
  const refract = await startRefract(port, {
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  });
  const base = `http://127.0.0.1:${port}`;
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const { token } = await res.json();
  return { base, token, stop: () => refract.stop() };
}
