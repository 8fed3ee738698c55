import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { REDIS_DEADLINE_MS, withDeadline } from '../../lib/deadline.js';
import type { JobQueue } from './job-queue.js';

/** A request waits REDIS_DEADLINE_MS for Redis before answering 503 queue_unavailable. */
export { REDIS_DEADLINE_MS };
/** A broken connection is logged once per this long, not once per retry. */
const LOG_EVERY_MS = 30_000;

/** Reconnects back off to 5 s, so a dead Redis costs a retry every few seconds, not a storm. */
const retryStrategy = (times: number) => Math.min(times * 250, 5000);

/** Logs a repeating error's message at most once per LOG_EVERY_MS (no stack-trace floods). */
function throttledWarn(log: FastifyBaseLogger, what: string) {
  let last = 0;
  return (err: Error) => {
    if (Date.now() - last < LOG_EVERY_MS) return;
    last = Date.now();
    log.warn(`${what}: ${err.message} (retrying with back-off; repeats are not logged for 30 s)`);
  };
}

/**
 * The scale-out queue: ids go to Redis and any process with a worker (`npm run worker`, or a
 * web process with WORKERS > 0) takes them. Job state lives in the database, not in BullMQ,
 * so a job's record reads the same whichever process ran it.
 */
export function bullmqQueue(options: {
  redisUrl: string;
  name: string;
  /** 0: only add jobs here, never run them. */
  concurrency: number;
  /** Runs the next job the database picks (fairly); each entry is one job's wake-up. */
  run(jobId: string): Promise<void>;
  log: FastifyBaseLogger;
}): JobQueue & {
  worker?: Worker;
  missing(ids: string[]): Promise<string[]>;
  exclusively(name: string, ms: number, work: () => Promise<void>): Promise<void>;
} {
  // Workers block on Redis, which ioredis must not retry per request; our own waits have deadlines.
  const connection = new Redis(options.redisUrl, {
    maxRetriesPerRequest: null,
    retryStrategy,
    lazyConnect: false,
  });
  connection.on('error', throttledWarn(options.log, 'Redis connection'));
  const queue = new Queue(options.name, { connection });
  queue.on('error', throttledWarn(options.log, 'Redis queue'));
  const worker =
    options.concurrency > 0
      ? new Worker(options.name, (entry) => options.run((entry.data as { jobId: string }).jobId), {
          connection,
          concurrency: options.concurrency,
          // A wake-up whose worker died is not retried by BullMQ: the job's record is re-queued
          // by the heartbeat check instead (job-service `sweep`), which cleans its files first.
          maxStalledCount: 0,
        })
      : undefined;
  worker?.on('error', throttledWarn(options.log, 'Redis worker'));
  const deadline = <T>(work: Promise<T>) => withDeadline(work, REDIS_DEADLINE_MS, 'Redis');

  return {
    kind: 'bullmq',
    worker,
    async add(jobId, { again = false, delayMs } = {}) {
      // BullMQ refuses ':' in custom ids (it separates Redis key parts).
      const entryId = again ? `${jobId}-again-${randomUUID()}` : jobId;
      await deadline(
        queue.add(
          'media',
          { jobId },
          { jobId: entryId, removeOnComplete: true, removeOnFail: true, delay: delayMs },
        ),
      );
    },
    async ping() {
      await deadline(connection.ping());
    },
    /** Of these job ids, those with no wake-up waiting or running in Redis. */
    async missing(ids) {
      const found = await deadline(Promise.all(ids.map((id) => queue.getJob(id))));
      return ids.filter((_, i) => !found[i]);
    },
    /** Runs `work` unless another process holds the lock `name` (held at most `ms`). */
    async exclusively(name, ms, work) {
      const key = `${options.name}:lock:${name}`;
      const token = randomUUID();
      if ((await deadline(connection.set(key, token, 'PX', ms, 'NX'))) !== 'OK') return;
      try {
        await work();
      } finally {
        // Released only if still ours (it may have expired and been taken by another).
        await deadline(
          connection.eval(
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end",
            1,
            key,
            token,
          ),
        ).catch(() => undefined);
      }
    },
    async drain(graceMs) {
      // BullMQ's close stops taking jobs and waits for the running ones.
      if (!worker) return true;
      return withDeadline(worker.close(), graceMs, 'worker close').then(
        () => true,
        () => false,
      );
    },
    async close() {
      // A connection already lost has nothing to close cleanly: no wait for Redis.
      if (connection.status === 'ready')
        await withDeadline(queue.close(), REDIS_DEADLINE_MS, 'queue close').catch(() => undefined);
      connection.disconnect();
    },
  };
}
