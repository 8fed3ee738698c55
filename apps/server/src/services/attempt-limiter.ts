import { isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../lib/app-error.js';
import { REDIS_DEADLINE_MS, withDeadline } from '../lib/deadline.js';

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

/** After Redis failed, how long before a ping (in the background) checks whether it is back. */
const RECHECK_MS = 5_000;
/** A lazy connection's first connect is waited for this long; then counting starts in memory. */
const FIRST_CONNECT_MS = 1_000;

/**
 * The same limits kept in Redis, so that every instance sharing it counts together (a balancer
 * cannot multiply the limit). Every command has a deadline (REDIS_DEADLINE_MS). When Redis
 * fails, this instance counts in its own memory (per process, so a client may get its limit
 * once per process) until a background ping finds Redis again: a sign-in never waits on a
 * Redis known to be down, and the outage is logged once, not once per attempt.
 */
export function redisAttemptLimiter(
  limit: AttemptLimit,
  redis: Redis,
  prefix: string,
  log: FastifyBaseLogger,
): AttemptLimiter {
  const fallback = attemptLimiter(limit);
  const names = (keys: string[]) => keys.map((key) => `${prefix}${key}`);
  /** Set while Redis is down: when to check it again. */
  let downSince: number | undefined;
  let checking = false;

  function markDown(err: unknown) {
    if (downSince === undefined)
      log.warn(
        `rate limits: Redis unavailable (${(err as Error).message}); counting in this process's memory until it is back`,
      );
    downSince = Date.now();
  }

  function recheck() {
    if (checking || Date.now() - downSince! < RECHECK_MS) return;
    checking = true;
    withDeadline(redis.ping(), REDIS_DEADLINE_MS, 'Redis')
      .then(() => {
        downSince = undefined;
        log.info('rate limits: Redis is back, counting there again');
      })
      .catch(() => (downSince = Date.now()))
      .finally(() => (checking = false));
  }

  /** A connection not yet made (lazy, or still connecting) is waited for briefly, once. */
  async function firstConnect() {
    const ready = new Promise<void>((resolve, reject) => {
      if (redis.status === 'wait') redis.connect().then(resolve, reject);
      else if (redis.status === 'connecting' || redis.status === 'connect')
        redis.once('ready', resolve);
      else reject(new Error(`connection ${redis.status}`));
    });
    await withDeadline(ready, FIRST_CONNECT_MS, 'Redis').catch(markDown);
  }

  /** `work` on Redis within the deadline, or `inMemory` when Redis is down or fails now. */
  async function counted<T>(work: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    if (downSince === undefined && redis.status !== 'ready') await firstConnect();
    if (downSince !== undefined) {
      recheck();
      return inMemory();
    }
    if (redis.status !== 'ready') {
      markDown(new Error(`connection ${redis.status}`));
      return inMemory();
    }
    try {
      return await withDeadline(work(), REDIS_DEADLINE_MS, 'Redis');
    } catch (err) {
      markDown(err);
      return inMemory();
    }
  }

  async function take(keys: string[]): Promise<AttemptCount[]> {
    return counted(
      async () => {
        const multi = redis.multi();
        for (const name of names(keys)) {
          // The window starts with the first attempt; INCR keeps the expiry SET gave it.
          multi.set(name, 0, 'PX', limit.windowMs, 'NX').incr(name).pttl(name);
        }
        const results = await multi.exec();
        if (!results || results.some(([err]) => err)) throw new Error('a command failed');
        return keys.map((_, i) => {
          const ttl = Number(results[i * 3 + 2]![1]);
          return {
            count: Number(results[i * 3 + 1]![1]),
            retryAfterMs: ttl > 0 ? ttl : limit.windowMs,
          };
        });
      },
      () => fallback.take(keys),
    );
  }

  return {
    take,
    async hit(keys) {
      throwIfOver(limit.max, await take(keys));
    },
    async giveBack(keys) {
      if (keys.length === 0) return;
      await counted(
        async () => void (await redis.eval(GIVE_BACK, keys.length, ...names(keys))),
        () => fallback.giveBack(keys),
      );
    },
    async clear(keys) {
      if (keys.length === 0) return;
      await counted(
        async () => void (await redis.del(...names(keys))),
        () => fallback.clear(keys),
      );
    },
  };
}
