/**
 * SIGTERM and SIGINT handled from a process's first line. A worker takes seconds to start (16 s
 * under load) and Node's default would kill it outright then, logging nothing. Until it takes
 * work there is nothing to hand back, so a stop then exits at once with code 0; while the step
 * that starts taking work runs, a stop waits for it; from then on the process's own shutdown
 * runs, once.
 */
export function handleStopsFromStart(name: string) {
  let shutdown: ((signal: string) => void) | undefined;
  let asked: string | undefined;
  let holding = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shutdown) return shutdown(signal);
    if (holding) {
      asked ??= signal;
      return;
    }
    console.info(`${name}: ${signal} during start-up, before any work was taken: exiting`);
    process.exit(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    /** Call before the step that starts taking work: a stop from here waits for `running`. */
    holdStops() {
      holding = true;
    },
    /** The process takes work now: every stop, and one asked while held, runs `stop` once. */
    running(stop: (signal: string) => void) {
      let stopping = false;
      shutdown = (signal) => {
        if (stopping) return;
        stopping = true;
        stop(signal);
      };
      if (asked) shutdown(asked);
    },
  };
}
