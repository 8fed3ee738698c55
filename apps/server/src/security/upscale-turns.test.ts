import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderTurns } from '../media/html/render-turns.js';
import { MODEL_PLACES, takeModelTurn } from '../media/upscale/super-resolution.js';
import { describeEachDatabase } from '../test/databases.js';
import { ended, status, until, used } from '../test/jobs.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** The upscale model is shared fairly: one user cannot take every place in its queue. */
describeEachDatabase('upscale model turns between users', (kind) => {
  let t: TestApp;
  let photo: Buffer;
  beforeAll(async () => {
    // Two image lanes whatever the machine: the second is the place the flooder must not take.
    t = await createTestApp(kind, { env: { IMAGE_WORKERS: '2' } });
    photo = await sharp({ create: { width: 40, height: 32, channels: 3, background: '#468' } })
      .png()
      .toBuffer();
  });
  afterAll(() => t.close());

  /** A model upscale as a job: its id. */
  async function upscale(token: string) {
    const res = await postForm(t.app, '/api/upscale?async=1', {
      token,
      fields: { scale: '2', method: 'model' },
      file: { filename: 'photo.png', content: photo },
    });
    expect(res.statusCode, res.body).toBe(202);
    return res.json().jobId as string;
  }

  it("runs one user's model upscales one at a time, the next left queued without a place of the lane; another user's goes meanwhile", async () => {
    const flooder = (await registerSubscriber(t)).token;
    const other = (await registerSubscriber(t)).token;
    // Every place at the model held by others, so that an upscale that has its lane waits for
    // its turn: running for as long as the test needs, whatever the machine's speed.
    const held = await Promise.all(
      Array.from({ length: MODEL_PLACES }, (_, i) => takeModelTurn(`someone-${i}`)),
    );
    const running = (token: string, id: string) =>
      until(async () => (await status(t, token, id)).json().status === 'running', `${id} to run`);
    try {
      const first = await upscale(flooder);
      await running(flooder, first);
      const second = await upscale(flooder);
      // The other user's upscale, sent after the flooder's second, takes the second lane.
      const others = await upscale(other);
      await running(other, others);
      expect((await status(t, flooder, second)).json().status).toBe('queued');
      // Each job holds its use while it waits, none more.
      expect(await used(t, flooder)).toBe(2);

      for (const turn of held) turn.free();
      for (const [token, id] of [
        [flooder, first],
        [other, others],
        [flooder, second],
      ] as const)
        expect(await ended(t, token, id)).toMatchObject({ status: 'done' });
      expect(await used(t, flooder)).toBe(2);
      expect(await used(t, other)).toBe(1);
    } finally {
      for (const turn of held) turn.free();
    }
  }, 120_000);
});

describe('model turns for jobs and callers that leave', () => {
  it('lets a job wait past its cap instead of refusing it, and takes a caller that leaves out of the queue', async () => {
    const turns = new RenderTurns({
      slots: 1,
      perUser: 1,
      retryAfterSeconds: 30,
      refusal: { code: 'too_many_renders', message: 'one at a time' },
    });
    const first = await turns.take('owner');
    await expect(turns.take('owner')).rejects.toMatchObject({
      status: 429,
      code: 'too_many_renders',
      headers: { 'retry-after': '30' },
    });
    const leaving = new AbortController();
    const gone = turns.take('visitor', { signal: leaving.signal });
    const job = turns.take('owner', { wait: true });
    leaving.abort(new Error('the client went away'));
    await expect(gone).rejects.toThrow('the client went away');
    // The place freed goes to the job: the caller that left is no longer waiting for it.
    first.free();
    const turn = await job;
    turn.free();
  });
});
