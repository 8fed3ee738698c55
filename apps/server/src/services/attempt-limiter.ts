import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../lib/app-error.js';

export interface AttemptLimit {
  max: number;
  windowMs: number;
}

export interface AttemptLimiter {
  /** Counts one attempt against every key; rejects with too_many_requests if any is over. */
  hit(keys: string[]): Promise<void>;
}

function throwIfOver(retryAfterMs: number) {
  if (retryAfterMs <= 0) return;
  const seconds = Math.ceil(retryAfterMs / 1000);
  throw new AppError(
    429,
    'too_many_requests',
    `Too many attempts. Try again in ${Math.ceil(seconds / 60)} minutes.`,
    { 'retry-after': String(seconds) },
  );
}

/**
 * Counts attempts per key in fixed windows (e.g. "login:ip:1.2.3.4") and refuses past the
 * limit with 429 and Retry-After. In this process's memory: for one instance, or when Redis fails.
 */
export function attemptLimiter({ max, windowMs }: AttemptLimit, now = () => Date.now()) {
  const windows = new Map<string, { count: number; resetAt: number }>();

  function sweep(at: number) {
    for (const [key, w] of windows) if (w.resetAt <= at) windows.delete(key);
  }

  return {
    async hit(keys: string[]) {
      const at = now();
      if (windows.size > 10_000) sweep(at);
      let retryAfterMs = 0;
      for (const key of keys) {
        let w = windows.get(key);
        if (!w || w.resetAt <= at) {
          w = { count: 0, resetAt: at + windowMs };
          windows.set(key, w);
        }
        w.count += 1;
        if (w.count > max) retryAfterMs = Math.max(retryAfterMs, w.resetAt - at);
      }
      throwIfOver(retryAfterMs);
    },
  } satisfies AttemptLimiter;
}

/**
 * The same limits kept in Redis, so that every instance sharing it counts together (a balancer
 * cannot multiply the limit). If Redis fails, this instance counts in memory meanwhile rather
 * than lock everyone out of logging in.
 */
export function redisAttemptLimiter(
  limit: AttemptLimit,
  redis: Redis,
  prefix: string,
  log: FastifyBaseLogger,
): AttemptLimiter {
  const fallback = attemptLimiter(limit);
  return {
    async hit(keys) {
      let results: [Error | null, unknown][] | null;
      try {
        const multi = redis.multi();
        for (const key of keys) {
          const name = `${prefix}${key}`;
          // The window starts with the first attempt; INCR keeps the expiry SET gave it.
          multi.set(name, 0, 'PX', limit.windowMs, 'NX').incr(name).pttl(name);
        }
        results = await multi.exec();
        if (!results || results.some(([err]) => err)) throw new Error('a command failed');
      } catch (err) {
        log.warn({ err }, 'rate limits: Redis unavailable, counting in memory');
        return fallback.hit(keys);
      }
      let retryAfterMs = 0;
      for (let i = 0; i < keys.length; i += 1) {
        const count = Number(results[i * 3 + 1]![1]);
        const ttl = Number(results[i * 3 + 2]![1]);
        if (count > limit.max)
          retryAfterMs = Math.max(retryAfterMs, ttl > 0 ? ttl : limit.windowMs);
      }
      throwIfOver(retryAfterMs);
    },
  };
}
