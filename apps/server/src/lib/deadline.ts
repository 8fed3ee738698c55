/** How long any Redis command may take before Redis is treated as down. */
export const REDIS_DEADLINE_MS = 3000;

/** A wait on the database or Redis that took longer than it may (it is then treated as down). */
export class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
}

/**
 * Resolves as `work` does, or rejects with DeadlineExceeded after `ms`. The work itself is not
 * stopped (a Redis command waiting for a reconnection may still run later): callers use this
 * only where running late is harmless, such as a wake-up for a runner.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeadlineExceeded(`${what} did not answer in ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
