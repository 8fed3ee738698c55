import { AppError } from '../lib/app-error.js';

export interface AttemptLimit {
  max: number;
  windowMs: number;
}

/**
 * Counts attempts per key in fixed windows (e.g. "login:ip:1.2.3.4") and refuses past the
 * limit with 429 and Retry-After. In memory: one process. Several instances behind a balancer
 * would each allow the limit; a shared store is future work (see the issue note).
 */
export function attemptLimiter({ max, windowMs }: AttemptLimit, now = () => Date.now()) {
  const windows = new Map<string, { count: number; resetAt: number }>();

  function sweep(at: number) {
    for (const [key, w] of windows) if (w.resetAt <= at) windows.delete(key);
  }

  return {
    /** Counts one attempt against every key; throws too_many_requests if any is over. */
    hit(keys: string[]): void {
      const at = now();
      if (windows.size > 10_000) sweep(at);
      let retryAfterMs = 0;
      for (const key of keys) {
        let w = windows.get(key);
        if (!w || w.resetAt <= at) {
          w = { count: 0, resetAt: at + windowMs };
          windows.set(key, w);
        }
        w.count += 1;
        if (w.count > max) retryAfterMs = Math.max(retryAfterMs, w.resetAt - at);
      }
      if (retryAfterMs > 0) {
        const seconds = Math.ceil(retryAfterMs / 1000);
        throw new AppError(
          429,
          'too_many_requests',
          `Too many attempts. Try again in ${Math.ceil(seconds / 60)} minutes.`,
          { 'retry-after': String(seconds) },
        );
      }
    },
  };
}

export type AttemptLimiter = ReturnType<typeof attemptLimiter>;
