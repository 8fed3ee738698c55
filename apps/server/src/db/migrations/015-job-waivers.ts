import type { Kysely } from 'kysely';

/**
 * Jobs: a waiting request answered 503 (the database could not serve it, or its web
 * process drained) told its user the work did not happen, so its job must not be charged even
 * when it finishes later. `waived` records that; whoever ends the job then charges nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('waived', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('waived').execute();
}
