import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Watches this process's event loop from now until `stop()`: the longest any timer waited past
 * its time, in milliseconds. A decoder, encoder or model run on the loop shows up here as its
 * whole running time; one in a worker thread or a child process does not.
 */
export function loopWatch() {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop() {
      histogram.disable();
      return { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 };
    },
  };
}
