import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobQueue } from './job-queue.js';

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
  run(): Promise<void>;
}): JobQueue & { worker?: Worker } {
  // Workers block on Redis, which ioredis must not retry per request.
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(options.name, { connection });
  const worker =
    options.concurrency > 0
      ? new Worker(options.name, () => options.run(), {
          connection,
          concurrency: options.concurrency,
          // A job whose worker died is not retried: its record is failed and its charge given back.
          maxStalledCount: 0,
        })
      : undefined;
  return {
    kind: 'bullmq',
    worker,
    async add(jobId) {
      await queue.add('media', { jobId }, { jobId, removeOnComplete: true, removeOnFail: true });
    },
    async close() {
      await worker?.close();
      await queue.close();
      connection.disconnect();
    },
  };
}
