import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registerUser } from '../test/accounts.js';
import { hasFfmpeg } from '../test/image-fixtures.js';
import { until, wav } from '../test/jobs.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { trackOpenRequests } from './drain.js';

/**
 * The drain (SIGTERM) as server.ts runs it: an upload still arriving at the deadline
 * is answered 503 service_unavailable, and its slot and partial file go with the shutdown.
 */
describe.skipIf(!hasFfmpeg)('the shutdown drain', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('answers an unfinished upload 503 and gives back its slot and files', async () => {
    let requests: ReturnType<typeof trackOpenRequests> | undefined;
    t = await createTestApp('sqlite', {
      beforeReady: (app) => (requests = trackOpenRequests(app)),
    });
    const { app, database } = t;
    const user = await registerUser(app);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const boundary = 'drainboundary';
    const answer = new Promise<{ status?: number; body: string }>((resolve) => {
      const req = httpRequest(`${address}/api/audio/convertaudio?async=1`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode, body }));
      });
      req.on('error', () => resolve({ body: '' }));
      req.write(
        `--${boundary}\r\ncontent-disposition: form-data; name="format"\r\n\r\nmp3\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="audio"; filename="in"\r\n\r\n`,
      );
      req.write(wav.subarray(0, 50_000));
    });
    const jobs = join(database.options.dataDir, 'jobs');
    const slot = await until(async () => {
      const row = await database.db
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'receiving')
        .executeTakeFirst();
      return row && existsSync(join(jobs, row.id, 'input')) ? row.id : undefined;
    }, 'the upload to reach disk');

    // What server.ts does on SIGTERM once SHUTDOWN_TIMEOUT has passed.
    const closing = app.close();
    requests!.endOpenRequests();
    await closing;

    const res = await answer;
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'service_unavailable' });
    const left = await database.db.selectFrom('jobs').select('id').execute();
    expect(left).toEqual([]);
    expect(existsSync(jobs) ? readdirSync(jobs) : []).not.toContain(slot);
  });
});
