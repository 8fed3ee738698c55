import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { readinessSchema } from '@refract/contracts';
import { openDatabase, type DatabaseHandle } from './database.js';
import { isDatabaseUnavailable } from './unavailable.js';
import { createTestDatabase, postgresUrl, type TestDatabase } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { registerUser } from '../test/accounts.js';
import { tcpProxy, type TcpProxy } from '../test/tcp-proxy.js';
import { fetchForm } from '../test/multipart.js';

describe('isDatabaseUnavailable', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('knows an unreachable or silent database from a bug', () => {
    expect(
      isDatabaseUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED')),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Query read timeout'))).toBe(true);
    expect(
      isDatabaseUnavailable(withCode('canceling statement due to statement timeout', '57014')),
    ).toBe(true);
    expect(isDatabaseUnavailable(withCode('the database system is starting up', '57P03'))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new AggregateError([withCode('x', 'ECONNREFUSED')]))).toBe(true);
    // A database refusing connections, or out of them, is an outage too.
    const refusing = 'database "refract" is not currently accepting connections';
    expect(isDatabaseUnavailable(withCode(refusing, '55000'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('sorry, too many clients already', '53300'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('out of memory', '53200'))).toBe(true);
    expect(
      isDatabaseUnavailable(
        withCode('terminating connection due to administrator command', '57P01'),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(withCode('the database system is shutting down', '57P02'))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(withCode('server closed the connection', '08006'))).toBe(true);
    // Another 55000 (a sequence used before it was set) is a bug.
    expect(isDatabaseUnavailable(withCode('lastval is not yet defined', '55000'))).toBe(false);
    // A bad query or a broken constraint is a bug (500), not an outage.
    expect(isDatabaseUnavailable(withCode('syntax error at or near', '42601'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('duplicate key value', '23505'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

/**
 * The real app on PostgreSQL reached through a relay that can refuse or stall: requests get
 * 503 service_unavailable within the deadlines, readiness says the database is down, and all
 * comes back once it answers again.
 */
describe.skipIf(!postgresUrl)('the database unreachable [postgres]', () => {
  let base: TestDatabase;
  let proxy: TcpProxy;
  let through: DatabaseHandle;
  let t: TestApp;

  beforeAll(async () => {
    base = await createTestDatabase('postgres');
    const target = new URL(postgresUrl!);
    proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(postgresUrl!);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const options = { ...base.options, databaseUrl: url.toString(), dbQueryTimeoutMs: 1000 };
    through = await openDatabase(options);
    t = await createTestApp('postgres', {
      database: { ...through, options, dispose: () => through.close() },
    });
  });
  afterAll(async () => {
    await t?.close();
    await through?.close();
    await proxy?.close();
    await base?.dispose();
  });

  it('cancels a statement past DB_QUERY_TIMEOUT, and the connection stays usable', async () => {
    const slow = sql`SELECT pg_sleep(3)`.execute(through.db);
    const err = await slow.catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '57014' });
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(through.db)).rows).toEqual([
      { one: 1 },
    ]);
  });

  it('refused: 503 service_unavailable, not ready, still live; served again once back', async () => {
    const user = await registerUser(t.app);
    const stats = () =>
      t.app.inject({ url: '/api/user/stats', headers: { authorization: `Bearer ${user.token}` } });
    expect((await stats()).statusCode).toBe(200);
    await proxy.refuse();
    try {
      const res = await stats();
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'service_unavailable' });
      expect(res.headers['retry-after']).toBe('10');
      const ready = await t.app.inject({ url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(readinessSchema.parse(ready.json()).checks.database.ok).toBe(false);
      expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await proxy.restore();
    }
    expect((await t.app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
    expect((await stats()).statusCode).toBe(200);
  });

  it('refused: an upload under way gets its 503 and Retry-After through fetch', async () => {
    const user = await registerUser(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    await proxy.refuse();
    try {
      const res = await fetchForm(
        `http://127.0.0.1:${port}/api/video/compress-video`,
        [{ field: 'video', name: 'clip.mp4', bytes: 24 * 1024 * 1024 }],
        user.token,
      );
      expect(res.status, res.error).toBe(503);
      expect(res.body?.code).toBe('service_unavailable');
      expect(res.headers?.['retry-after']).toBe('10');
    } finally {
      await proxy.restore();
    }
  });

  it('silent (packets dropped): 503 once a deadline passes, not a hang', async () => {
    const user = await registerUser(t.app);
    proxy.stall();
    try {
      const res = await t.app.inject({
        url: '/api/user/stats',
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'service_unavailable' });
      const ready = await t.app.inject({ url: '/api/health/ready' });
      expect(readinessSchema.parse(ready.json()).checks.database).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/did not answer within/),
      });
    } finally {
      await proxy.restore();
    }
    await expect
      .poll(async () => (await t.app.inject({ url: '/api/health/ready' })).statusCode, {
        timeout: 60_000,
      })
      .toBe(200);
  });
});
