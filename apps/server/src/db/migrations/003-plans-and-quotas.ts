import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // Set on the seeded plans the rules depend on: 'basic' (the fallback) and 'admin'.
    .addColumn('slug', 'text', (col) => col.unique())
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('monthly_fee_cents', 'integer', (col) => col.notNull())
    .addColumn('annual_fee_cents', 'integer', (col) => col.notNull())
    .addColumn('features', 'text', (col) => col.notNull()) // JSON array of strings
    .addColumn('hidden', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('plan_quotas')
    .addColumn('plan_id', 'text', (col) => col.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('service', 'text', (col) => col.notNull())
    .addColumn('monthly_quota', 'integer', (col) => col.notNull())
    .addColumn('annual_quota', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('plan_quotas_pk', ['plan_id', 'service'])
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'text', (col) => col.notNull().references('plans.id'))
    .addColumn('billing_type', 'text', (col) => col.notNull())
    // Billing periods are counted in whole months from the anchor; the paid time ends at end_date.
    .addColumn('anchor_date', 'text', (col) => col.notNull())
    .addColumn('end_date', 'text', (col) => col.notNull())
    .addColumn('cancel_at_period_end', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  // One subscription row per user; renewals and plan changes update it.
  await db.schema
    .createIndex('subscriptions_user_idx')
    .on('subscriptions')
    .column('user_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('subscriptions_plan_idx')
    .on('subscriptions')
    .column('plan_id')
    .execute();

  await db.schema
    .createTable('usage_counters')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service', 'text', (col) => col.notNull())
    .addColumn('period_start', 'text', (col) => col.notNull())
    .addColumn('used', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('usage_counters_pk', ['user_id', 'service', 'period_start'])
    .execute();

  // Confirmed uses, for statistics (images processed, feature usage).
  await db.schema
    .createTable('usage_events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service', 'text', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('usage_events_user_idx')
    .on('usage_events')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['usage_events', 'usage_counters', 'subscriptions', 'plan_quotas', 'plans']) {
    await db.schema.dropTable(table).execute();
  }
}
