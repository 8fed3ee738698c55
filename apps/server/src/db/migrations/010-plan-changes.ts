import type { Kysely } from 'kysely';

/**
 * A downgrade waits for the end of the paid period (`scheduled_plan_id`,
 * `scheduled_billing_type`), and a plan with payments is archived rather than deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('subscriptions')
    .addColumn('scheduled_plan_id', 'text', (col) => col.references('plans.id'))
    .execute();
  await db.schema.alterTable('subscriptions').addColumn('scheduled_billing_type', 'text').execute();
  await db.schema
    .alterTable('plans')
    .addColumn('archived', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('archived').execute();
  await db.schema.alterTable('subscriptions').dropColumn('scheduled_billing_type').execute();
  await db.schema.alterTable('subscriptions').dropColumn('scheduled_plan_id').execute();
}
