import type { FastifyBaseLogger } from 'fastify';

/** How often an owed write is tried again, and how long before it is given up (logged). */
const RETRY_MS = 2_000;
const GIVE_UP_MS = 60 * 60 * 1000;

/**
 * Writes that must reach the database even when it cannot serve now: a use given back to a
 * user who was answered 503, a job marked free. Tried at once; while they fail they are kept
 * in memory and tried again every RETRY_MS, so they land once the database is back. Lost only
 * if this process dies before then (the log names each one).
 */
export function owedWrites(log: FastifyBaseLogger) {
  const owed = new Map<string, { work: () => Promise<void>; since: number }>();
  let timer: NodeJS.Timeout | undefined;

  async function attempt(key: string, work: () => Promise<void>) {
    try {
      await work();
      owed.delete(key);
    } catch (err) {
      const entry = owed.get(key);
      if (!entry) {
        log.warn(
          `${key}: owed to the database, retried until it answers (${(err as Error).message})`,
        );
        owed.set(key, { work, since: Date.now() });
      } else if (Date.now() - entry.since > GIVE_UP_MS) {
        log.error(`${key}: given up after an hour of database errors`);
        owed.delete(key);
      }
    }
    if (owed.size > 0 && !timer) {
      timer = setInterval(() => void retryAll(), RETRY_MS);
      timer.unref();
    } else if (owed.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  let retrying = false;
  async function retryAll() {
    if (retrying) return; // a slow database must not pile up rounds
    retrying = true;
    try {
      await Promise.all([...owed].map(([key, { work }]) => attempt(key, work)));
    } finally {
      retrying = false;
    }
  }

  return {
    /** Does `work` now, or as soon as the database lets it; one entry per `key`. */
    run: (key: string, work: () => Promise<void>) => attempt(key, work),
    /** One last try of everything still owed (at shutdown). */
    flush: retryAll,
    get size() {
      return owed.size;
    },
  };
}

export type OwedWrites = ReturnType<typeof owedWrites>;
