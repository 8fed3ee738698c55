import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { CheckoutSessionsTable, Database, PaymentsTable } from '../schema.js';

export type PaymentRow = Selectable<PaymentsTable>;
export type CheckoutRow = Selectable<CheckoutSessionsTable>;

export interface PaymentFilter {
  email?: string;
  plan?: string;
  /** Inclusive days, YYYY-MM-DD, in UTC. */
  from?: string;
  to?: string;
}

export function paymentsRepository(db: Kysely<Database>) {
  return {
    async createCheckout(row: Insertable<CheckoutSessionsTable>) {
      await db.insertInto('checkout_sessions').values(row).execute();
    },

    findCheckout: (id: string) =>
      db.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst(),

    /** open → completed or declined, once; false when it was already closed. */
    async closeCheckout(id: string, status: 'completed' | 'declined') {
      const result = await db
        .updateTable('checkout_sessions')
        .set({ status })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Records a payment once per provider payment id; false when it was already recorded. */
    async insert(row: Insertable<PaymentsTable>) {
      const result = await db
        .insertInto('payments')
        .values(row)
        .onConflict((oc) => oc.column('provider_payment_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },

    listForUser: (userId: string) =>
      db
        .selectFrom('payments')
        .innerJoin('plans', 'plans.id', 'payments.plan_id')
        .selectAll('payments')
        .select('plans.name as plan_name')
        .where('payments.user_id', '=', userId)
        .orderBy('payments.created_at', 'desc')
        .execute(),

    listForAdmin(filter: PaymentFilter) {
      let query = db
        .selectFrom('payments')
        .innerJoin('plans', 'plans.id', 'payments.plan_id')
        .innerJoin('users', 'users.id', 'payments.user_id')
        .selectAll('payments')
        .select([
          'plans.name as plan_name',
          'users.name as user_name',
          'users.email as user_email',
          'users.country as user_country',
        ]);
      if (filter.email) {
        const pattern = `%${escapeLike(filter.email.toLowerCase())}%`;
        query = query.where(sql<boolean>`users.email like ${pattern} escape '\\'`);
      }
      if (filter.plan) query = query.where('plans.name', '=', filter.plan);
      if (filter.from)
        query = query.where('payments.created_at', '>=', `${filter.from}T00:00:00.000Z`);
      if (filter.to) query = query.where('payments.created_at', '<=', `${filter.to}T23:59:59.999Z`);
      return query.orderBy('payments.created_at', 'desc').execute();
    },

    /** Who gave the period that ends at `cycleEnd` (`admin`: a grant); undefined: nobody. */
    async providerOfPeriodEnding(userId: string, cycleEnd: string) {
      const row = await db
        .selectFrom('payments')
        .select('provider')
        .where('user_id', '=', userId)
        .where('cycle_end', '=', cycleEnd)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return row?.provider;
    },

    /** Cents collected since `since` (an ISO time). */
    async sumSince(since: string) {
      const row = await db
        .selectFrom('payments')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('cents'))
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.cents);
    },

    async wasEventProcessed(id: string) {
      const row = await db
        .selectFrom('processed_events')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Marks a provider event applied; false when it already was (a replay). */
    async markEventProcessed(id: string, type: string, at: string) {
      const result = await db
        .insertInto('processed_events')
        .values({ id, type, processed_at: at })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
  };
}

/** A LIKE pattern matches the text literally: % and _ typed by an admin are not wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export type PaymentsRepository = ReturnType<typeof paymentsRepository>;
