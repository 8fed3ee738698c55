interface FaultLog {
  error(obj: object, msg: string): void;
  fatal(obj: object, msg: string): void;
}

/**
 * What a process does with an error no request caught (decision 027).
 * - An unhandled rejection belongs to one piece of work whose promise nobody awaited: it is
 *   logged and the process goes on, so other users' requests are untouched.
 * - An uncaught exception may have left shared state half-changed (Node's own advice is not to
 *   carry on): it is logged, and the process drains as on SIGTERM, so requests and jobs already
 *   under way finish within SHUTDOWN_TIMEOUT, then exits 1 for its supervisor to restart it.
 * Every known source of one (streams, child processes, workers) has its own listener; these are
 * the last line, not the plan.
 */
export function handleProcessFaults(log: FaultLog, drainAndExit: (reason: string) => void) {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled rejection (logged; the process goes on)');
  });
  let draining = false;
  process.on('uncaughtException', (err) => {
    log.fatal({ err }, 'uncaught exception: draining open requests, then exiting');
    if (draining) return;
    draining = true;
    drainAndExit('uncaughtException');
  });
}
