import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';

/**
 * Real processes for the fault suite: web processes (WORKERS=0) and workers, from the sources
 * (tsx), on a fresh PostgreSQL database, one Redis queue and one shared DATA_DIR, all on loopback.
 */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = join(repoRoot, 'node_modules/.bin/tsx');

export const postgresUrl = process.env.TEST_DATABASE_URL || undefined;
export const redisUrl = process.env.REDIS_URL || undefined;

/** Why the suite cannot run here, or undefined when PostgreSQL and Redis both answer. */
export async function missingServices(): Promise<string | undefined> {
  if (!postgresUrl || !redisUrl) return 'TEST_DATABASE_URL and REDIS_URL are not both set';
  try {
    const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.end();
  } catch {
    return `PostgreSQL does not answer at TEST_DATABASE_URL`;
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    return 'Redis does not answer at REDIS_URL';
  } finally {
    redis.disconnect();
  }
  return undefined;
}

export interface Proc {
  name: string;
  child: ChildProcess;
  port?: number;
  log: string[];
  url: string;
}

export async function createCluster() {
  // A database of its own (the server has no schema setting), dropped at the end.
  const name = `refract_faults_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const dataDir = mkdtempSync(join(tmpdir(), 'refract-faults-'));
  const queueName = `faults-${name}`;
  const inSchema = new pg.Client({ connectionString: databaseUrl });
  await inSchema.connect();
  const procs: Proc[] = [];
  // Clear of the services a machine runs on low ports (RabbitMQ's epmd answers on 4369) and
  // below Linux's ephemeral range.
  let nextPort = 21_000 + Math.floor(Math.random() * 8_000);

  const baseEnv = (extra: Record<string, string>) => ({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl!,
    QUEUE_NAME: queueName,
    DATA_DIR: dataDir,
    JWT_SECRET: 'fault-suite-secret-that-is-long-enough-123',
    SIGN_UP_LIMIT: '1000',
    ADMIN_EMAIL: 'admin@faults.example.com',
    ADMIN_PASSWORD: 'fault suite admin 42',
    SHUTDOWN_TIMEOUT: '2',
    UPLOAD_TIMEOUT: '5',
    LEFTOVER_GRACE: '5',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    ...extra,
  });

  function start(name: string, script: 'server' | 'worker', env: Record<string, string> = {}) {
    const port = script === 'server' ? nextPort++ : undefined;
    const child = spawn(
      tsx,
      ['--conditions=source', join(repoRoot, `apps/server/src/${script}.ts`)],
      {
        cwd: repoRoot,
        env: baseEnv({ ...(port ? { PORT: String(port) } : {}), ...env }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const proc: Proc = { name, child, port, log: [], url: `http://127.0.0.1:${port}` };
    const keep = (chunk: Buffer) => proc.log.push(...chunk.toString().split('\n').filter(Boolean));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    procs.push(proc);
    return proc;
  }

  /** The pid of the node process itself (tsx runs the script in a child process). */
  function nodePid(proc: Proc): number {
    const children = execFileSync('pgrep', ['-P', String(proc.child.pid)])
      .toString()
      .trim();
    return Number(children.split('\n')[0]);
  }

  return {
    dataDir,
    databaseUrl,
    queueName,
    db: admin,
    start,
    nodePid,
    /** Runs SQL in the cluster's database. */
    query: (text: string, values: unknown[] = []) => inSchema.query(text, values),
    async stop() {
      for (const proc of procs) {
        try {
          process.kill(nodePid(proc), 'SIGKILL');
        } catch {
          // already gone
        }
        proc.child.kill('SIGKILL');
      }
      await inSchema.end();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
      // The shared DATA_DIR (uploads, results, the volume marker) goes with the cluster.
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Cluster = Awaited<ReturnType<typeof createCluster>>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` gives a value; fails after `ms`. Returns the value and the time it took. */
export async function within<T>(
  ms: number,
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
) {
  const started = Date.now();
  while (Date.now() - started < ms) {
    const value = await check();
    if (value) return { value, tookMs: Date.now() - started };
    await sleep(200);
  }
  throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
}

/** Waits for readiness; a process that never gets there shows the end of its log. */
export async function waitReady(proc: Proc, ms = 240_000) {
  try {
    await within(ms, `${proc.name} to be ready`, async () => {
      const res = await fetch(`${proc.url}/api/health/ready`).catch(() => undefined);
      return res?.status === 200;
    });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${proc.log.slice(-10).join('\n')}`);
  }
}
