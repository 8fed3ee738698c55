import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export function usageRepository(db: Kysely<Database>) {
  return {
    /**
     * Adds `count` to the user's counter for the period if the result stays within `quota`
     * (-1: no limit). One upsert statement, so concurrent charges can never overrun: the row
     * lock (PostgreSQL) or the single writer (SQLite) serialises them. Returns the new total,
     * or undefined when the quota would be exceeded.
     */
    async tryIncrement(
      userId: string,
      service: string,
      periodStart: string,
      count: number,
      quota: number,
    ) {
      if (quota >= 0 && count > quota) return undefined;
      const row = await db
        .insertInto('usage_counters')
        .values({ user_id: userId, service, period_start: periodStart, used: count })
        .onConflict((oc) => {
          const update = oc
            .columns(['user_id', 'service', 'period_start'])
            .doUpdateSet((eb) => ({ used: eb('usage_counters.used', '+', count) }));
          return quota >= 0 ? update.where('usage_counters.used', '<=', quota - count) : update;
        })
        .returning('used')
        .executeTakeFirst();
      return row?.used;
    },

    /** Gives back a reservation that was not used (the tool failed). */
    async decrement(
      userId: string,
      service: string,
      periodStart: string,
      count: number,
    ): Promise<void> {
      await db
        .updateTable('usage_counters')
        .set((eb) => ({ used: eb('used', '-', count) }))
        .where('user_id', '=', userId)
        .where('service', '=', service)
        .where('period_start', '=', periodStart)
        .where('used', '>=', count)
        .execute();
    },

    /**
     * Settles a held use: confirmed (an event for the admin's totals; the count stays) or
     * given back (the count goes down).
     */
    async settle(
      charge: { userId: string; service: string; periodStart: string; count: number },
      outcome: 'confirm' | 'release',
    ): Promise<void> {
      if (outcome === 'confirm')
        await this.recordEvent(charge.userId, charge.service, charge.count);
      else await this.decrement(charge.userId, charge.service, charge.periodStart, charge.count);
    },

    /** Used counts of every service for one period. */
    async usedInPeriod(userId: string, periodStart: string): Promise<Map<string, number>> {
      const rows = await db
        .selectFrom('usage_counters')
        .select(['service', 'used'])
        .where('user_id', '=', userId)
        .where('period_start', '=', periodStart)
        .execute();
      return new Map(rows.map((r) => [r.service, r.used]));
    },

    async recordEvent(userId: string, service: string, count: number): Promise<void> {
      await db
        .insertInto('usage_events')
        .values({
          id: crypto.randomUUID(),
          user_id: userId,
          service,
          count,
          created_at: new Date().toISOString(),
        })
        .execute();
    },

    /** Confirmed uses per service, for everyone (admin feature usage). */
    async totalsByService(): Promise<Record<string, number>> {
      const rows = await db
        .selectFrom('usage_events')
        .select(['service', (eb) => eb.fn.sum<number>('count').as('n')])
        .groupBy('service')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.service, Number(r.n)]));
    },
  };
}

export type UsageRepository = ReturnType<typeof usageRepository>;
