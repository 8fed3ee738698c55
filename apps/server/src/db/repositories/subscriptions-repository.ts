import type { Kysely, Selectable } from 'kysely';
import type { Database, SubscriptionsTable } from '../schema.js';

export type SubscriptionRow = Selectable<SubscriptionsTable>;

export interface SubscriptionInput {
  userId: string;
  planId: string;
  billingType: 'monthly' | 'annual';
  anchorDate: Date;
  endDate: Date;
  /** The provider's own subscription (Stripe), to match its later events. */
  providerSubscriptionId?: string | null;
}

export function subscriptionsRepository(db: Kysely<Database>) {
  return {
    findByUser(userId: string): Promise<SubscriptionRow | undefined> {
      return db
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    /**
     * The user's subscription, locked until the transaction `db` belongs to ends: concurrent
     * payments of one user then extend it one after another instead of each from the same end.
     * The no-op update of the user's row takes its row lock (PostgreSQL) or the write lock
     * (SQLite); it is the user's row, not the subscription's, because a first purchase has no
     * subscription row to lock yet.
     */
    async findByUserForUpdate(userId: string): Promise<SubscriptionRow | undefined> {
      await db
        .updateTable('users')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', userId)
        .execute();
      return db
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    /** Creates or replaces the user's one subscription (payments renew and switch plans with it). */
    async upsert(input: SubscriptionInput): Promise<void> {
      const now = new Date().toISOString();
      const values = {
        plan_id: input.planId,
        billing_type: input.billingType,
        anchor_date: input.anchorDate.toISOString(),
        end_date: input.endDate.toISOString(),
        cancel_at_period_end: 0,
        provider_subscription_id: input.providerSubscriptionId ?? null,
        scheduled_plan_id: null,
        scheduled_billing_type: null,
        updated_at: now,
      };
      await db
        .insertInto('subscriptions')
        .values({ id: crypto.randomUUID(), user_id: input.userId, created_at: now, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },

    /** A cancel: the subscription runs to its end date and is not renewed. */
    async setCancelAtPeriodEnd(userId: string, cancel: boolean): Promise<void> {
      await db
        .updateTable('subscriptions')
        .set({ cancel_at_period_end: cancel ? 1 : 0, updated_at: new Date().toISOString() })
        .where('user_id', '=', userId)
        .execute();
    },

    /**
     * A downgrade for when the paid period ends (or, with null, none): the subscription is not
     * renewed as it is, so it is also cancelled at the period end.
     */
    async setScheduledChange(
      userId: string,
      change: { planId: string; billingType: 'monthly' | 'annual' } | null,
    ): Promise<void> {
      await db
        .updateTable('subscriptions')
        .set({
          scheduled_plan_id: change?.planId ?? null,
          scheduled_billing_type: change?.billingType ?? null,
          cancel_at_period_end: change ? 1 : 0,
          updated_at: new Date().toISOString(),
        })
        .where('user_id', '=', userId)
        .execute();
    },

    /**
     * Applies the scheduled change of a subscription whose period has ended: `next` is the
     * subscription it becomes, or null for none (Basic). Conditional on the change still being
     * due, so two requests that both see it apply it once. True when this call applied it.
     */
    async applyDueChange(
      userId: string,
      now: Date,
      next: {
        planId: string;
        billingType: 'monthly' | 'annual';
        anchorDate: Date;
        endDate: Date;
      } | null,
    ): Promise<boolean> {
      const cutoff = now.toISOString();
      if (!next) {
        const result = await db
          .deleteFrom('subscriptions')
          .where('user_id', '=', userId)
          .where('scheduled_plan_id', 'is not', null)
          .where('end_date', '<=', cutoff)
          .executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      }
      const result = await db
        .updateTable('subscriptions')
        .set({
          plan_id: next.planId,
          billing_type: next.billingType,
          anchor_date: next.anchorDate.toISOString(),
          end_date: next.endDate.toISOString(),
          cancel_at_period_end: 0,
          provider_subscription_id: null,
          scheduled_plan_id: null,
          scheduled_billing_type: null,
          updated_at: cutoff,
        })
        .where('user_id', '=', userId)
        .where('scheduled_plan_id', 'is not', null)
        .where('end_date', '<=', cutoff)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Applies a provider event's change unless a newer event was applied already (events can
     * arrive out of order); false when it was older and so ignored.
     */
    async applyProviderEvent(
      providerSubscriptionId: string,
      eventAt: string,
      change: { cancelAtPeriodEnd?: boolean; endDate?: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('subscriptions')
        .set({
          ...(change.cancelAtPeriodEnd === undefined
            ? {}
            : { cancel_at_period_end: change.cancelAtPeriodEnd ? 1 : 0 }),
          ...(change.endDate ? { end_date: change.endDate } : {}),
          last_event_at: eventAt,
          updated_at: new Date().toISOString(),
        })
        .where('provider_subscription_id', '=', providerSubscriptionId)
        .where((eb) => eb.or([eb('last_event_at', 'is', null), eb('last_event_at', '<=', eventAt)]))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Back to Basic at once (a free plan chosen). */
    async remove(userId: string): Promise<void> {
      await db.deleteFrom('subscriptions').where('user_id', '=', userId).execute();
    },

    async deleteLapsedForPlan(planId: string, now: Date): Promise<void> {
      await db
        .deleteFrom('subscriptions')
        .where('plan_id', '=', planId)
        .where('end_date', '<=', now.toISOString())
        .execute();
    },

    /** Subscriptions still paid for at `now`, per plan id. */
    async countActiveByPlan(now: Date): Promise<Map<string, number>> {
      const rows = await db
        .selectFrom('subscriptions')
        .select(['plan_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('end_date', '>', now.toISOString())
        .groupBy('plan_id')
        .execute();
      return new Map(rows.map((r) => [r.plan_id, Number(r.n)]));
    },
  };
}

export type SubscriptionsRepository = ReturnType<typeof subscriptionsRepository>;
