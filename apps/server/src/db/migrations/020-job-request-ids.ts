import type { Kysely } from 'kysely';

/**
 * A job keeps the id of the request that uploaded it, so the worker that runs it logs that id
 * on every line: one search follows a job from its upload to its download, across processes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('request_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('request_id').execute();
}
