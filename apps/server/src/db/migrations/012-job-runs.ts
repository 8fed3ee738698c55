import type { Kysely } from 'kysely';

/**
 * Jobs: a job whose worker died is re-queued while attempts remain, so each run
 * carries a token (`runner`) that only its own runner's writes match (a late write from a
 * runner presumed dead changes nothing), and the record counts its `attempts`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('runner', 'text').execute();
  await db.schema
    .alterTable('jobs')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('jobs_user_created_idx')
    .on('jobs')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_user_created_idx').execute();
  await db.schema.alterTable('jobs').dropColumn('attempts').execute();
  await db.schema.alterTable('jobs').dropColumn('runner').execute();
}
