import type { Kysely } from 'kysely';

/**
 * Tracked uses: a client that runs a tool in the browser reports each use with
 * `POST /api/user/track`, which charges it. A server run of the same service soon after takes
 * one of those uses instead of charging again (a client that tracks and then calls the server
 * tool pays once). `credits` are the tracked uses not yet taken, until `expires_at`; a job
 * that took one has `tracked` = 1, so its failure gives the use back to the credits.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tracked_uses')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service', 'text', (col) => col.notNull())
    .addColumn('credits', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('tracked_uses_pk', ['user_id', 'service'])
    .execute();
  await db.schema
    .alterTable('jobs')
    .addColumn('tracked', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('tracked').execute();
  await db.schema.dropTable('tracked_uses').execute();
}
