import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A held use, as the counters name it; `tracked` when a tracked use paid for it. */
export interface Charge {
  userId: string;
  service: string;
  periodStart: string;
  count: number;
  tracked?: boolean;
}

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
     * given back (the count goes down). A use a tracked use paid for was counted, with its
     * event, when it was tracked: confirmed, nothing changes; given back, the tracked use is
     * there again for the next run.
     */
    async settle(charge: Charge, outcome: 'confirm' | 'release'): Promise<void> {
      if (charge.tracked) {
        if (outcome === 'release') await this.giveBackTracked(charge);
      } else if (outcome === 'confirm')
        await this.recordEvent(charge.userId, charge.service, charge.count);
      else await this.decrement(charge.userId, charge.service, charge.periodStart, charge.count);
    },

    /**
     * Charges uses done in the browser (`POST /api/user/track`) and keeps them, until
     * `expiresAt`, for a server run of the service to take instead of charging again. Within
     * the quota or not at all, in one transaction: the new total, or undefined when the quota
     * would be exceeded. Run on the database itself, never inside another transaction.
     */
    async track(charge: Charge, quota: number, now: string, expiresAt: string) {
      return db.transaction().execute(async (trx) => {
        const uses = usageRepository(trx);
        const { userId, service, periodStart, count } = charge;
        const used = await uses.tryIncrement(userId, service, periodStart, count, quota);
        if (used === undefined) return undefined;
        await uses.recordEvent(userId, service, count);
        await trx
          .insertInto('tracked_uses')
          .values({ user_id: userId, service, credits: count, expires_at: expiresAt })
          .onConflict((oc) =>
            oc.columns(['user_id', 'service']).doUpdateSet((eb) => ({
              // Uses tracked earlier and not yet taken stay while new ones arrive.
              credits: eb
                .case()
                .when('tracked_uses.expires_at', '>', now)
                .then(eb('tracked_uses.credits', '+', count))
                .else(count)
                .end(),
              expires_at: expiresAt,
            })),
          )
          .execute();
        return used;
      });
    },

    /**
     * Takes `count` tracked uses of the service not yet expired at `now`, if there are that
     * many: one conditional UPDATE, so runs in parallel never take the same use twice.
     */
    async takeTracked(userId: string, service: string, count: number, now: string) {
      const result = await db
        .updateTable('tracked_uses')
        .set((eb) => ({ credits: eb('credits', '-', count) }))
        .where('user_id', '=', userId)
        .where('service', '=', service)
        .where('credits', '>=', count)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A run that took tracked uses failed: they are there again for the next run. */
    async giveBackTracked(charge: Charge): Promise<void> {
      await db
        .updateTable('tracked_uses')
        .set((eb) => ({ credits: eb('credits', '+', charge.count) }))
        .where('user_id', '=', charge.userId)
        .where('service', '=', charge.service)
        .execute();
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
