import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser } from '../test/accounts.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Logs at production cost, one line per request at the default level. */
describe('request log at info', () => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (line) => void lines.push(JSON.parse(line)) },
    });
  });
  afterAll(() => t.close());

  const linesOf = (reqId: string) => lines.filter((l) => l.reqId === reqId);

  it('writes one line per request: method, route pattern, status, time and request id', async () => {
    const { token } = await registerUser(t.app);
    const id = '7f0c3a52-0000-4000-8000-000000000000';
    const res = await t.app.inject({
      url: `/api/jobs/${id}?token=secret-in-query`,
      headers: { ...bearer(token), 'x-request-id': 'req-one-line' },
    });
    // Refused (unknown query field): the line is written all the same.
    expect(res.statusCode, res.body).toBe(400);
    const mine = linesOf('req-one-line');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/api/jobs/:id',
      status: 400,
      ms: expect.any(Number),
      msg: 'request',
    });
    // The pattern, not the address: neither the id nor the query reach the log.
    expect(JSON.stringify(mine)).not.toContain(id);
    expect(JSON.stringify(mine)).not.toContain('secret-in-query');
  });

  it('does not log health checks at info', async () => {
    for (const url of ['/api/health', '/api/health/live', '/api/health/ready']) {
      const res = await t.app.inject({ url, headers: { 'x-request-id': 'req-health' } });
      expect(res.statusCode).toBe(200);
    }
    expect(linesOf('req-health')).toEqual([]);
  });
});
