import { describe } from 'vitest';

/** BullMQ suites run only when REDIS_URL is set (CI sets it). */
export const redisUrl = process.env.REDIS_URL || undefined;

/**
 * Runs a suite once per job queue: always on the embedded one, and on BullMQ with the real
 * Redis when REDIS_URL is set. The suite gets the environment that selects its queue.
 */
export function describeEachQueue(name: string, suite: (env: Record<string, string>) => void) {
  describe(`${name} [local queue]`, () => suite({ REDIS_URL: '' }));
  const describeRedis = redisUrl ? describe : describe.skip;
  const label = redisUrl ? '[bullmq]' : '[bullmq: skipped, REDIS_URL not set]';
  describeRedis(`${name} ${label}`, () => suite({ REDIS_URL: redisUrl ?? '' }));
}
