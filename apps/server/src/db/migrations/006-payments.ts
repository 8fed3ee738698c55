import type { Kysely } from 'kysely';

/** Checkout sessions, recorded payments, and the provider events already applied. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('checkout_sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (col) => col.notNull().references('plans.id'))
    .addColumn('billing_type', 'text', (col) => col.notNull())
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull()) // open | completed | declined
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (col) => col.notNull().references('plans.id'))
    .addColumn('provider', 'text', (col) => col.notNull())
    // What the provider calls this payment (a Stripe invoice, a sandbox session): one payment each.
    .addColumn('provider_payment_id', 'text', (col) => col.notNull().unique())
    .addColumn('amount_cents', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('billing_type', 'text', (col) => col.notNull())
    .addColumn('cycle_start', 'text', (col) => col.notNull())
    .addColumn('cycle_end', 'text', (col) => col.notNull())
    .addColumn('card_brand', 'text')
    .addColumn('card_last4', 'text')
    .addColumn('receipt_url', 'text')
    .addColumn('billing_name', 'text')
    .addColumn('billing_email', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('payments_user_idx')
    .on('payments')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('processed_events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('processed_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .alterTable('subscriptions')
    .addColumn('provider_subscription_id', 'text')
    .execute();
  // The newest provider event applied to it, so an older one arriving late changes nothing.
  await db.schema.alterTable('subscriptions').addColumn('last_event_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('last_event_at').execute();
  await db.schema.alterTable('subscriptions').dropColumn('provider_subscription_id').execute();
  await db.schema.dropTable('processed_events').execute();
  await db.schema.dropTable('payments').execute();
  await db.schema.dropTable('checkout_sessions').execute();
}
