import { AppError } from '../lib/app-error.js';

/** The answers of work stopped at its time limit: what the back-off counts. */
const TIMEOUT_CODES = new Set<string>(['processing_timeout', 'render_timeout']);

export interface TimeoutBackoffOptions {
  /** Timeouts within the window after which the user is refused. */
  limit?: number;
  windowMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

export type TimeoutBackoff = ReturnType<typeof timeoutBackoff>;

/**
 * Work stopped at its time limit (an HTML render's 10 s, an image step's minute) is not
 * charged, so a user could hold the renderer's or the image slots again and again at no cost.
 * After `limit` such timeouts within `windowMs`, that user's image and HTML requests are refused
 * with 429 too_many_timeouts until the oldest of them leaves the window; successes do not count.
 * Kept in this process's memory: a timeout costs the process that ran it, and a user spread over
 * several web processes is held back by each of them (as HTML render turns are).
 */
export function timeoutBackoff({
  limit = 3,
  windowMs = 5 * 60_000,
  now = Date.now,
}: TimeoutBackoffOptions = {}) {
  /** Each user's timeouts still in the window, oldest first. */
  const timeouts = new Map<string, number[]>();

  function recent(userId: string): number[] {
    const since = now() - windowMs;
    const kept = (timeouts.get(userId) ?? []).filter((at) => at > since);
    if (kept.length > 0) timeouts.set(userId, kept);
    else timeouts.delete(userId);
    return kept;
  }

  return {
    /** Refuses a user with `limit` timeouts in the window: 429 too_many_timeouts, Retry-After. */
    check(userId: string): void {
      const kept = recent(userId);
      if (kept.length < limit) return;
      // Once the oldest of the last `limit` leaves the window, fewer than `limit` are left.
      const seconds = Math.max(
        1,
        Math.ceil((kept[kept.length - limit]! + windowMs - now()) / 1000),
      );
      throw new AppError(
        429,
        'too_many_timeouts',
        `${kept.length} of your requests in the last ${Math.round(windowMs / 60_000)} minutes ran out of time and were stopped. Try again in ${Math.ceil(seconds / 60)} minutes, with a smaller file or simpler content.`,
        { 'retry-after': String(seconds) },
      );
    },

    /** Counts `err` against the user when it is a timeout; passes it on either way. */
    record(userId: string, err: unknown): unknown {
      if (err instanceof AppError && TIMEOUT_CODES.has(err.code)) {
        timeouts.set(userId, [...recent(userId), now()]);
        // Users who stopped sending leave nothing behind: timeouts are rare, so this walk is too.
        for (const id of [...timeouts.keys()]) recent(id);
      }
      return err;
    },
  };
}
