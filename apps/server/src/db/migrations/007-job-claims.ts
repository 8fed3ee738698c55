import type { Kysely } from 'kysely';

/**
 * Jobs: a slot is claimed as a `receiving` row before the upload is read; the
 * runner takes the next job fairly, by when each user was last served (`started_at`); a job
 * records whether its use was charged; an expired result keeps its row (410, not 404) with
 * `result_file` cleared.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('started_at', 'text').execute();
  await db.schema
    .alterTable('jobs')
    .addColumn('charged', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('jobs_user_status_idx')
    .on('jobs')
    .columns(['user_id', 'status'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('jobs_user_status_idx').execute();
  await db.schema.alterTable('jobs').dropColumn('charged').execute();
  await db.schema.alterTable('jobs').dropColumn('started_at').execute();
}
