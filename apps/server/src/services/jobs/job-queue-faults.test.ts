import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../test/accounts.js';
import { postBatch } from '../../test/batches.js';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import { submit, used, wav } from '../../test/jobs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe.skipIf(!hasFfmpeg)('media submits while Redis is unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 1 on loopback: nothing listens, so Redis never answers.
    t = await createTestApp('sqlite', { env: { REDIS_URL: 'redis://127.0.0.1:1', WORKERS: '0' } });
  });
  afterAll(() => t.close());

  it('answers 503 queue_unavailable with Retry-After, charges nothing and leaves nothing', async () => {
    const { token } = await registerUser(t.app);
    // More than the per-user cap of 5: a refused submit must not keep holding a slot.
    for (let i = 0; i < 6; i++) {
      const res = await submit(t, token, wav, 'mp3', i % 2 === 0);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ code: 'queue_unavailable' });
      expect(res.headers['retry-after']).toBe('30');
    }
    expect(await used(t, token)).toBe(0);
    const rows = await t.database.db.selectFrom('jobs').select('status').execute();
    expect(rows).toEqual([]);
    const jobs = join(t.database.options.dataDir, 'jobs');
    expect(existsSync(jobs) ? readdirSync(jobs) : []).toEqual([]);
  });

  it('answers a batch the same way: 503 queue_unavailable, nothing charged, no files left', async () => {
    const { token } = await registerUser(t.app);
    const files = [1, 2].map((i) => ({ name: `${i}.wav`, content: wav }));
    const res = await postBatch(
      t.app,
      '/api/batch/audio/convertaudio',
      token,
      { format: 'mp3' },
      files,
    );
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ code: 'queue_unavailable' });
    expect(res.headers['retry-after']).toBe('30');
    expect(await used(t, token)).toBe(0);
    const jobs = join(t.database.options.dataDir, 'jobs');
    expect(existsSync(jobs) ? readdirSync(jobs) : []).toEqual([]);
  });
});
