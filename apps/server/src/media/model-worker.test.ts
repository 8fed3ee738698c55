import { afterEach, describe, expect, it, vi } from 'vitest';
import { MODEL_WORKER_SERVE, ModelWorker } from './model-worker.js';

const DOUBLER = `${MODEL_WORKER_SERVE}
serve(async ({ n }) => ({ result: n * 2 }));`;

describe('a model worker left unused', () => {
  let model: ModelWorker | undefined;
  afterEach(() => model?.close());

  it('lets its worker go once idle, and loads again on the next call', async () => {
    model = new ModelWorker(
      DOUBLER,
      {},
      { name: 'Doubling', maxWaiting: 4, heapMb: 32, idleMs: 300 },
    );
    expect(await model.run<number>({ n: 21 })).toBe(42);
    expect(model.loaded).toBe(true);
    await vi.waitFor(() => expect(model!.loaded).toBe(false), { timeout: 30_000, interval: 50 });
    expect(await model.run<number>({ n: 4 })).toBe(8);
    expect(model.loaded).toBe(true);
  });

  it('stays loaded while calls keep coming', async () => {
    model = new ModelWorker(
      DOUBLER,
      {},
      { name: 'Doubling', maxWaiting: 4, heapMb: 32, idleMs: 1000 },
    );
    for (let i = 0; i < 6; i += 1) {
      expect(await model.run<number>({ n: i })).toBe(i * 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(model.loaded).toBe(true);
    }
  });
});
