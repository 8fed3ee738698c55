import type { Kysely } from 'kysely';

/** An admin may suspend an account; while set, it cannot sign in or use its keys. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('suspended_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('suspended_at').execute();
}
