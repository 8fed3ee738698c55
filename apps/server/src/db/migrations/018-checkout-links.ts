import type { Kysely } from 'kysely';

/**
 * Checkouts remember where to send the browser back (`success_url`, `cancel_url`: the caller's
 * own site when it is one of CORS_ORIGINS), and a sandbox checkout keeps the hash of the key
 * of its link, which opens that checkout alone, without a second sign-in on this site.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('checkout_sessions').addColumn('success_url', 'text').execute();
  await db.schema.alterTable('checkout_sessions').addColumn('cancel_url', 'text').execute();
  await db.schema.alterTable('checkout_sessions').addColumn('link_key_hash', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['link_key_hash', 'cancel_url', 'success_url'])
    await db.schema.alterTable('checkout_sessions').dropColumn(column).execute();
}
