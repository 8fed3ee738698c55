import { mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../test/accounts.js';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import { cancel, ended, jobDir, result, runningJob, submit, used, wav } from '../../test/jobs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { postBatch } from '../../test/batches.js';
import { subscribe } from '../../test/plans.js';

/**
 * A process whose DATA_DIR is not the shared volume: it refuses job uploads and
 * cannot send results, with 503 storage_unavailable rather than a job failing later or a
 * result looking expired; a worker that cannot find a job's upload fails it, uncharged.
 */
describe.skipIf(!hasFfmpeg)('a process on another volume than the shared one', () => {
  let shared: TestApp;
  let other: TestApp;
  const elsewhere = mkdtempSync(join(tmpdir(), 'refract-other-volume-'));

  // One secret for both, as across real replicas (otherwise each keeps its own in DATA_DIR).
  const env = { WORKERS: '1', JWT_SECRET: 'shared-volume-test-secret-long-enough-42' };

  beforeAll(async () => {
    shared = await createTestApp('sqlite', { env });
    other = await createTestApp('sqlite', {
      database: shared.database,
      env: { ...env, DATA_DIR: elsewhere },
    });
  });
  afterAll(async () => {
    await other?.close();
    await shared?.close();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('refuses job uploads with 503 storage_unavailable, charging and writing nothing', async () => {
    const user = await registerUser(shared.app);
    const res = await submit(other, user.token, wav);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'storage_unavailable' });
    expect(res.headers['retry-after']).toBe('30');
    expect(await used(shared, user.token)).toBe(0);
    expect(readdirSync(elsewhere)).not.toContain('jobs');
  });

  it('refuses a batch the same way', async () => {
    const user = await registerUser(shared.app);
    await subscribe(shared.database.db, user.user._id, 'business');
    const res = await postBatch(
      other.app,
      '/api/batch/audio/convertaudio',
      user.token,
      { format: 'mp3' },
      [{ name: 'a.wav', content: wav }],
    );
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'storage_unavailable' });
    expect(await used(shared, user.token)).toBe(0);
    expect(readdirSync(elsewhere)).not.toContain('jobs');
  });

  it('answers a result kept on the shared volume with 503 storage_unavailable, not 410', async () => {
    const user = await registerUser(shared.app);
    const { jobId } = (await submit(shared, user.token, wav)).json();
    expect((await ended(shared, user.token, jobId)).status).toBe('done');
    const res = await result(other, user.token, jobId);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'storage_unavailable' });
    expect((await result(shared, user.token, jobId)).statusCode).toBe(200);
  });

  it('fails a job whose upload the worker cannot find with storage_unavailable, uncharged', async () => {
    const user = await registerUser(shared.app);
    // The one worker is kept busy while the next job's upload disappears (an unmounted share).
    const busy = await runningJob(shared, user.token);
    const { jobId } = (await submit(shared, user.token, wav)).json();
    unlinkSync(join(jobDir(shared, jobId), 'input'));
    await cancel(shared, user.token, busy);
    const job = await ended(shared, user.token, jobId);
    expect(job).toMatchObject({
      status: 'failed',
      charged: false,
      error: { code: 'storage_unavailable' },
    });
    expect(await used(shared, user.token)).toBe(0);
  });
});
