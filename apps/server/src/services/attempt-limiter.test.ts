import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { redisUrl } from '../test/queues.js';
import { tcpProxy } from '../test/tcp-proxy.js';
import {
  attemptLimiter,
  clientKey,
  redisAttemptLimiter,
  type AttemptLimiter,
} from './attempt-limiter.js';

const LIMIT = { max: 3, windowMs: 60_000 };
const silent = pino({ level: 'silent' });

/** How many of `n` attempts on one key get through. */
async function allowed(limiter: AttemptLimiter, key: string, n: number) {
  let passed = 0;
  for (let i = 0; i < n; i += 1) {
    await limiter.hit([key]).then(
      () => (passed += 1),
      () => {},
    );
  }
  return passed;
}

describe('attempt limits in memory', () => {
  it('allows max attempts per window, then 429 with Retry-After, then a new window', async () => {
    let now = 0;
    const limiter = attemptLimiter(LIMIT, () => now);
    expect(await allowed(limiter, 'login:ip:a', 5)).toBe(3);
    await expect(limiter.hit(['login:ip:a'])).rejects.toMatchObject({
      status: 429,
      code: 'too_many_requests',
      headers: { 'retry-after': '60' },
    });
    expect(await allowed(limiter, 'login:ip:b', 1)).toBe(1);
    now = 60_001;
    expect(await allowed(limiter, 'login:ip:a', 1)).toBe(1);
  });
});

describe('counting clients', () => {
  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002::7')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

/** take, giveBack and clear, the same on both limiters. */
async function givesBackAndClears(limiter: AttemptLimiter, key: string) {
  expect((await limiter.take([key]))[0]!.count).toBe(1);
  expect((await limiter.take([key]))[0]!.count).toBe(2);
  await limiter.giveBack([key]);
  const [after] = await limiter.take([key]);
  expect(after!.count).toBe(2);
  expect(after!.retryAfterMs).toBeGreaterThan(0);
  await limiter.clear([key]);
  // A give-back with no window running leaves nothing behind.
  await limiter.giveBack([key]);
  expect((await limiter.take([key]))[0]!.count).toBe(1);
}

describe('giving attempts back', () => {
  it('takes one back, clears a key, and never counts below a fresh window', async () => {
    await givesBackAndClears(attemptLimiter(LIMIT), 'login:email:a');
  });
});

describe.skipIf(!redisUrl)('attempt limits in Redis', () => {
  const redis = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
  afterAll(() => redis.quit());

  it('counts one limit across instances sharing Redis', async () => {
    const prefix = `test-${randomUUID()}:attempts:`;
    const first = redisAttemptLimiter(LIMIT, redis, prefix, silent);
    const second = redisAttemptLimiter(LIMIT, redis, prefix, silent);
    expect(await allowed(first, 'login:email:x', 2)).toBe(2);
    expect(await allowed(second, 'login:email:x', 2)).toBe(1);
    const refused = await first.hit(['login:email:x']).catch((err: unknown) => err);
    expect(refused).toMatchObject({ status: 429 });
    const retryAfter = Number(
      (refused as { headers: Record<string, string> }).headers['retry-after'],
    );
    expect(retryAfter).toBeGreaterThan(50);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const ttl = await redis.pttl(`${prefix}login:email:x`);
    expect(ttl).toBeGreaterThan(0);
  });

  it('takes one back, clears a key, and never leaves a key without expiry', async () => {
    const prefix = `test-${randomUUID()}:attempts:`;
    await givesBackAndClears(redisAttemptLimiter(LIMIT, redis, prefix, silent), 'login:email:y');
    await redisAttemptLimiter(LIMIT, redis, prefix, silent).giveBack(['login:email:none']);
    expect(await redis.exists(`${prefix}login:email:none`)).toBe(0);
    expect(await redis.pttl(`${prefix}login:email:y`)).toBeGreaterThan(0);
  });

  it('counts in memory while Redis is unreachable, rather than refusing everyone', async () => {
    const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, lazyConnect: true });
    down.on('error', () => {});
    const limiter = redisAttemptLimiter(LIMIT, down, 'x:', silent);
    expect(await allowed(limiter, 'login:ip:c', 5)).toBe(3);
    down.disconnect();
  });

  it('a Redis that stops answering (packets dropped): each command ends at its deadline, then memory counts until Redis is back', async () => {
    const target = new URL(redisUrl!);
    const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const through = new Redis(`redis://127.0.0.1:${proxy.port}`, { maxRetriesPerRequest: 1 });
    through.on('error', () => {});
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    try {
      const limiter = redisAttemptLimiter(LIMIT, through, `stall-${randomUUID()}:`, log);
      await limiter.hit(['login:ip:d']);
      proxy.stall();
      // Without a deadline the first of these waits for ever on the silent connection.
      expect(await allowed(limiter, 'login:ip:d', 5)).toBe(3);
      await limiter.giveBack(['login:ip:d']);
      await limiter.clear(['login:ip:d']);
      // One line for the whole outage, without a stack trace.
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).not.toMatch(/stack/);
    } finally {
      through.disconnect();
      await proxy.close();
    }
  });
});
