import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../lib/app-error.js';

export interface AttemptLimit {
  max: number;
  windowMs: number;
}

/** A key's attempts in its current window, and how long until that window ends. */
export interface AttemptCount {
  count: number;
  retryAfterMs: number;
}

export interface AttemptLimiter {
  /** Counts one attempt against every key; rejects with too_many_requests if any is over. */
  hit(keys: string[]): Promise<void>;
  /** Counts one attempt against every key and answers the counts; refuses nothing. */
  take(keys: string[]): Promise<AttemptCount[]>;
  /** Takes one attempt back from each key whose window still runs (it turned out harmless). */
  giveBack(keys: string[]): Promise<void>;
  /** Forgets the keys' counts. */
  clear(keys: string[]): Promise<void>;
}

/** 429 too_many_requests with Retry-After. */
export function tooManyAttempts(retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    429,
    'too_many_requests',
    `Too many attempts. Try again in ${Math.ceil(seconds / 60)} minutes.`,
    { 'retry-after': String(seconds) },
  );
}

function throwIfOver(max: number, counts: AttemptCount[]) {
  let retryAfterMs = 0;
  for (const c of counts) if (c.count > max) retryAfterMs = Math.max(retryAfterMs, c.retryAfterMs);
  if (retryAfterMs > 0) throw tooManyAttempts(retryAfterMs);
}

/**
 * What a limit counts a client by: an IPv4 address, or an IPv6 /64 (one customer's network
 * holds a whole /64, so counting single IPv6 addresses would let them rotate past any limit).
 */
export function clientKey(ip: string): string {
  const address = ip.split('%')[0]!;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? front
      : [
          ...front,
          ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'),
          ...back,
        ];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
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

  async function take(keys: string[]) {
    const at = now();
    if (windows.size > 10_000) sweep(at);
    return keys.map((key) => {
      let w = windows.get(key);
      if (!w || w.resetAt <= at) {
        w = { count: 0, resetAt: at + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { count: w.count, retryAfterMs: w.resetAt - at };
    });
  }

  return {
    take,
    async hit(keys: string[]) {
      throwIfOver(max, await take(keys));
    },
    async giveBack(keys: string[]) {
      const at = now();
      for (const key of keys) {
        const w = windows.get(key);
        if (w && w.resetAt > at && w.count > 0) w.count -= 1;
      }
    },
    async clear(keys: string[]) {
      for (const key of keys) windows.delete(key);
    },
  } satisfies AttemptLimiter;
}

// Decrements only a key that still exists: a DECR on an expired key would create one at -1
// that never expires.
const GIVE_BACK = `for _, key in ipairs(KEYS) do
  if redis.call('exists', key) == 1 then redis.call('decr', key) end
end
return 0`;

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
  const names = (keys: string[]) => keys.map((key) => `${prefix}${key}`);
  const unavailable = (err: unknown) =>
    log.warn({ err }, 'rate limits: Redis unavailable, counting in memory');

  async function take(keys: string[]): Promise<AttemptCount[]> {
    let results: [Error | null, unknown][] | null;
    try {
      const multi = redis.multi();
      for (const name of names(keys)) {
        // The window starts with the first attempt; INCR keeps the expiry SET gave it.
        multi.set(name, 0, 'PX', limit.windowMs, 'NX').incr(name).pttl(name);
      }
      results = await multi.exec();
      if (!results || results.some(([err]) => err)) throw new Error('a command failed');
    } catch (err) {
      unavailable(err);
      return fallback.take(keys);
    }
    return keys.map((_, i) => {
      const ttl = Number(results[i * 3 + 2]![1]);
      return {
        count: Number(results[i * 3 + 1]![1]),
        retryAfterMs: ttl > 0 ? ttl : limit.windowMs,
      };
    });
  }

  return {
    take,
    async hit(keys) {
      throwIfOver(limit.max, await take(keys));
    },
    async giveBack(keys) {
      if (keys.length === 0) return;
      try {
        await redis.eval(GIVE_BACK, keys.length, ...names(keys));
      } catch (err) {
        unavailable(err);
        await fallback.giveBack(keys);
      }
    },
    async clear(keys) {
      if (keys.length === 0) return;
      try {
        await redis.del(...names(keys));
      } catch (err) {
        unavailable(err);
        await fallback.clear(keys);
      }
    },
  };
}
