import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RenderTurns } from '../media/html/render-turns.js';
import { imageSlotCounters, imageSlots, inImageSlot } from '../media/image/slots.js';
import { bearer } from '../test/accounts.js';
import { describeEachDatabase } from '../test/databases.js';
import { postForm } from '../test/multipart.js';
import { registerSubscriber } from '../test/plans.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** The upscale model is shared fairly: one user cannot take every place in its queue. */
describeEachDatabase('upscale model turns between users', (kind) => {
  let t: TestApp;
  let photo: Buffer;
  beforeAll(async () => {
    t = await createTestApp(kind);
    photo = await sharp({ create: { width: 40, height: 32, channels: 3, background: '#468' } })
      .png()
      .toBuffer();
  });
  afterAll(() => t.close());

  /** A model upscale, sent at once (inject sends only when its answer is awaited). */
  const upscale = (token: string) =>
    Promise.resolve(
      postForm(t.app, '/api/upscale', {
        token,
        fields: { scale: '2', method: 'model' },
        file: { filename: 'photo.png', content: photo },
      }),
    );
  /**
   * The answer to `request` if it comes while every image slot is held, or 'queued' once it
   * waits for a slot itself (it was given a turn): whichever happens first.
   */
  async function answeredUnqueued(request: Promise<LightMyRequestResponse>, queuedBefore: number) {
    let answer: LightMyRequestResponse | undefined;
    void request.then((res) => (answer = res));
    await vi.waitFor(
      () => expect(answer !== undefined || imageSlotCounters().waiting > queuedBefore).toBe(true),
      { timeout: 30_000, interval: 5 },
    );
    return answer ?? 'queued';
  }
  const used = async (token: string) =>
    (await t.app.inject({ url: '/api/user/stats', headers: bearer(token) })).json()
      .imagesProcessed as number;

  it("refuses one user's second model upscale in flight with 429 too_many_upscales and Retry-After, uncharged; another user gets a place", async () => {
    const flooder = (await registerSubscriber(t)).token;
    const other = (await registerSubscriber(t)).token;
    // Every image slot held, so that an upscale that has its turn waits at its first step: in
    // flight for as long as the test needs, whatever the machine's speed.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: imageSlots() }, () =>
      inImageSlot(() => held).catch(() => undefined),
    );
    try {
      await vi.waitFor(() => expect(imageSlotCounters().active).toBe(imageSlots()));
      const first = upscale(flooder);
      await vi.waitFor(() => expect(imageSlotCounters().waiting).toBe(1));

      const second = await answeredUnqueued(upscale(flooder), 1);
      if (second === 'queued') throw new Error('the second upscale was let in beside the first');
      expect(second.statusCode, second.body).toBe(429);
      expect(second.json().code).toBe('too_many_upscales');
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      // The first upscale's use, held while it works; the second took none.
      expect(await used(flooder)).toBe(1);

      // The other user's upscale has its turn: it too waits at its first step, not refused.
      const others = upscale(other);
      expect(await answeredUnqueued(others, 1)).toBe('queued');
      release();
      const [a, b] = await Promise.all([first, others]);
      expect(a.statusCode, a.body).toBe(200);
      expect(b.statusCode, b.body).toBe(200);
      expect(await used(flooder)).toBe(1);

      // Its turn over, the user may upscale again.
      expect((await upscale(flooder)).statusCode).toBe(200);
    } finally {
      release();
      await Promise.all(holders);
    }
  }, 120_000);
});

describe('model turns for jobs and callers that leave', () => {
  it('lets a job wait past its cap instead of refusing it, and takes a caller that leaves out of the queue', async () => {
    const turns = new RenderTurns({
      slots: 1,
      perUser: 1,
      retryAfterSeconds: 30,
      refusal: { code: 'too_many_upscales', message: 'one at a time' },
    });
    const first = await turns.take('owner');
    await expect(turns.take('owner')).rejects.toMatchObject({
      status: 429,
      code: 'too_many_upscales',
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
