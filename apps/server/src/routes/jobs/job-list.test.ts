import { afterAll, beforeAll, expect, it } from 'vitest';
import { recentJobsSchema } from '@refract/contracts';
import { jobsRepository } from '../../db/repositories/jobs-repository.js';
import { bearer, registerUser } from '../../test/accounts.js';
import { batchEnded, postBatch } from '../../test/batches.js';
import * as images from '../../test/image-fixtures.js';
import { describeEachDatabase } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describeEachDatabase('GET /api/jobs', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { REDIS_URL: '' } });
  });
  afterAll(() => t.close());

  /** A job record as a run leaves it (the runner itself is tested in services/jobs). */
  async function recordJob(userId: string, id: string, createdAt: string, done: boolean) {
    const jobs = jobsRepository(t.database.db);
    await jobs.claimSlot(
      { id, user_id: userId, tool: 'convertAudio', created_at: createdAt },
      { perUser: 100, queue: 100 },
    );
    const admission = {
      fields: '{}',
      service: 'convert-audio',
      period_start: '',
      input_bytes: 5,
      input_name: 'song.ogg',
    };
    await jobs.admit(id, admission, createdAt);
    const run = await jobs.claim(id, createdAt);
    if (done)
      await jobs.finishDone(
        id,
        run!.runner!,
        { file: 'result.mp3', filename: 'converted.mp3', contentType: 'audio/mpeg', bytes: 3 },
        createdAt,
      );
  }

  it("lists only the user's own jobs, newest first, a page at a time, with result links", async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    await recordJob(alice.user._id, 'a-old', '2026-01-01T00:00:00.000Z', true);
    await recordJob(alice.user._id, 'a-mid', '2026-01-02T00:00:00.000Z', false);
    await recordJob(alice.user._id, 'a-new', '2026-01-03T00:00:00.000Z', true);
    await recordJob(bob.user._id, 'b-job', '2026-01-04T00:00:00.000Z', true);

    const first = await t.app.inject({ url: '/api/jobs?limit=2', headers: bearer(alice.token) });
    expect(first.statusCode, first.body).toBe(200);
    const page1 = recentJobsSchema.parse(first.json());
    expect(page1.jobs.map((j) => j.id)).toEqual(['a-new', 'a-mid']);
    expect(page1.jobs[0]).toMatchObject({
      status: 'done',
      charged: true,
      filename: 'converted.mp3',
      resultUrl: '/api/jobs/a-new/result',
      service: 'convert-audio',
      tool: 'convertAudio',
      inputName: 'song.ogg',
      batch: null,
    });
    expect(page1.jobs[1]).toMatchObject({ status: 'running', resultUrl: null });
    expect(page1.nextCursor).toEqual(expect.any(String));

    const second = await t.app.inject({
      url: `/api/jobs?limit=2&cursor=${page1.nextCursor}`,
      headers: bearer(alice.token),
    });
    const page2 = recentJobsSchema.parse(second.json());
    expect(page2.jobs.map((j) => j.id)).toEqual(['a-old']);
    expect(page2.nextCursor).toBeNull();

    const bobs = recentJobsSchema.parse(
      (await t.app.inject({ url: '/api/jobs', headers: bearer(bob.token) })).json(),
    );
    expect(bobs.jobs.map((j) => j.id)).toEqual(['b-job']);
  });

  it('names each entry by its file and tool, and lists a batch once with how its files stand', async () => {
    const { token } = await registerUser(t.app);
    const png = await images.pngBytes();
    const files = [
      { name: 'IMG_2001.png', content: png },
      { name: 'damaged.jpg', content: await images.truncatedJpeg() },
      { name: 'beach.png', content: png },
    ];
    const posted = await postBatch(t.app, '/api/batch/rotate', token, { angle: '90' }, files);
    expect(posted.statusCode, posted.body).toBe(202);
    const batchId = posted.json().batchId as string;
    await batchEnded(t.app, token, batchId);

    const res = await t.app.inject({ url: '/api/jobs', headers: bearer(token) });
    const { jobs } = recentJobsSchema.parse(res.json());
    // Three files, one entry: the batch, named by its first file, with its zip.
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      tool: 'rotate',
      inputName: 'IMG_2001.png',
      status: 'done',
      progress: 100,
      resultUrl: `/api/batches/${batchId}/zip`,
      batch: { id: batchId, total: 3, done: 2, failed: 1 },
    });
  });

  it('refuses strangers and malformed cursors', async () => {
    expect((await t.app.inject({ url: '/api/jobs' })).statusCode).toBe(401);
    const { token } = await registerUser(t.app);
    const bad = await t.app.inject({ url: '/api/jobs?cursor=nonsense', headers: bearer(token) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
    const tooMany = await t.app.inject({ url: '/api/jobs?limit=500', headers: bearer(token) });
    expect(tooMany.statusCode).toBe(400);
  });
});
