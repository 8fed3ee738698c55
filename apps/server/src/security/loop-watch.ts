import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A full garbage collection now, so none falls inside a watch (a test process's heap is large). */
export function collectGarbage() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * The longest this process's event loop was held while `work` ran (the longest any timer waited
 * past its time), and what `work` answered. A decoder, encoder or model run on the loop shows up
 * here as its whole running time; one in a worker thread or a child process does not.
 */
async function watchLoopDuring<T>(work: () => Promise<T>) {
  collectGarbage();
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    return { result: await work(), maxMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

/**
 * Runs `work`, and again if it held the loop `limitMs` or more: a decoder on the loop holds it
 * every time (seconds), while a busy machine that did not schedule this thread for a moment
 * rarely does it twice in a row. The second run's figures are the ones returned.
 */
export async function watchLoopTwiceIfSlow<T>(work: () => Promise<T>, limitMs = 200) {
  const first = await watchLoopDuring(work);
  return first.maxMs < limitMs ? first : watchLoopDuring(work);
}
