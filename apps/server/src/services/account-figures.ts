import type { UserRow } from '../db/repositories/users-repository.js';
import type { SubscriptionRow } from '../db/repositories/subscriptions-repository.js';

interface Figures {
  version: number;
  subscription?: { value: Promise<SubscriptionRow | null>; until: number };
  /** Uses per service, by the start of the period they count in. */
  used: Map<string, Promise<Map<string, number>>>;
}

/** Users whose figures are kept at most; the least recently read go first. */
const KEPT_USERS = 10_000;

/**
 * A user's subscription and usage as last read, kept while their row's `account_version` is
 * the one they were read under. Triggers bump that number on every write to the user's
 * subscription or usage counters, from any process (migration 021), and the sign-in reads the
 * row on every request anyway: so a dashboard or a batch page polling /api/user/stats costs
 * no query for them until something is charged or changed. A subscription is read again once
 * its end has passed, when a scheduled change becomes due (applying one writes the row, which
 * moves the version too).
 *
 * The version comes from the row the request signed in with, read before anything is loaded
 * here: what is kept is at least as new as the version it is kept under.
 */
export function accountFigures() {
  const byUser = new Map<string, Figures>();

  function figuresOf(user: UserRow): Figures | undefined {
    const version = user.account_version;
    if (typeof version !== 'number') return undefined; // a row read without the column
    let figures = byUser.get(user.id);
    byUser.delete(user.id); // set again below: the newest read goes to the end
    if (!figures || figures.version !== version) figures = { version, used: new Map() };
    byUser.set(user.id, figures);
    if (byUser.size > KEPT_USERS) byUser.delete(byUser.keys().next().value!);
    return figures;
  }

  /** A load shared by the requests that ask at once; a failed one is forgotten. */
  function shared<T>(load: () => Promise<T>, forget: () => void): Promise<T> {
    const value = load();
    value.catch(forget);
    return value;
  }

  return {
    subscription(
      user: UserRow,
      now: Date,
      load: () => Promise<SubscriptionRow | null>,
    ): Promise<SubscriptionRow | null> {
      const figures = figuresOf(user);
      if (!figures) return load();
      const kept = figures.subscription;
      if (kept && now.getTime() < kept.until) return kept.value;
      const entry = { value: shared(load, () => delete figures.subscription), until: Infinity };
      figures.subscription = entry;
      // Until its end, when a scheduled change falls due; one that has ended already (lapsed,
      // its change applied by the load) stays as it is.
      void entry.value.then(
        (row) => {
          const end = row ? new Date(row.end_date).getTime() : Infinity;
          entry.until = end > now.getTime() ? end : Infinity;
        },
        () => undefined,
      );
      return entry.value;
    },

    used(
      user: UserRow,
      periodStart: string,
      load: () => Promise<Map<string, number>>,
    ): Promise<Map<string, number>> {
      const figures = figuresOf(user);
      if (!figures) return load();
      let value = figures.used.get(periodStart);
      if (!value) {
        value = shared(load, () => figures.used.delete(periodStart));
        figures.used.set(periodStart, value);
      }
      return value;
    },
  };
}

export type AccountFigures = ReturnType<typeof accountFigures>;
