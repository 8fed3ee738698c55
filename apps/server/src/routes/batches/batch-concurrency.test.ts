import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { batchEnded, postBatch } from '../../test/batches.js';
import { registerSubscriber } from '../../test/plans.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** A 2 MP noisy photo: its WebP encode takes long enough for runs to overlap when they may. */
const photo = (seed: number) =>
  sharp({
    create: {
      width: 1600 + seed,
      height: 1200,
      channels: 3,
      background: { r: 30 * seed, g: 90, b: 200 },
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg({ quality: 95 })
    .toBuffer();

/**
 * How many of the batch's files were running at once at most, from their own records: at each
 * file's midpoint, the files whose run spans it. Midpoints, not start times, so the few
 * milliseconds between one run's slot coming free and its finish being written never count
 * as two at once.
 */
async function mostAtOnce(t: TestApp, batchId: string) {
  const rows = await t.database.db
    .selectFrom('jobs')
    .select(['started_at', 'finished_at'])
    .where('batch_id', '=', batchId)
    .execute();
  const times = rows.map((r) => [Date.parse(r.started_at!), Date.parse(r.finished_at!)] as const);
  return Math.max(
    ...times.map(([start, finish]) => {
      const middle = (start + finish) / 2;
      return times.filter(([s, f]) => s <= middle && middle < f).length;
    }),
  );
}

/** Runs a batch of six photos to WebP on a machine of two cores; how many ran at once. */
async function batchOnTwoCores(env: Record<string, string> = {}) {
  const t = await createTestApp('sqlite', { cores: 2, env });
  apps.push(t);
  const { token } = await registerSubscriber(t);
  const files = await Promise.all(
    [1, 2, 3, 4, 5, 6].map(async (i) => ({ name: `p${i}.jpg`, content: await photo(i) })),
  );
  const res = await postBatch(
    t.app,
    '/api/batch/convert',
    token,
    { format: 'webp' },
    files,
    '?files=6',
  );
  expect(res.statusCode, res.body).toBe(202);
  const batch = await batchEnded(t.app, token, res.json().batchId);
  expect(batch.counts.done).toBe(6);
  return mostAtOnce(t, batch.id);
}

const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

/** A batch's image files fill the cores by default instead of running one by one. */
describe('batch concurrency at the defaults', () => {
  it('runs the files of a batch two at a time on two cores', async () => {
    expect(await batchOnTwoCores()).toBe(2);
  }, 120_000);

  it('runs them one at a time with IMAGE_WORKERS=1 (the measure above sees the difference)', async () => {
    expect(await batchOnTwoCores({ IMAGE_WORKERS: '1' })).toBe(1);
  }, 120_000);
});
