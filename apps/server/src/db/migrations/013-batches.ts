import { sql, type Kysely } from 'kysely';

const MB = 1024 * 1024;

/** The seeded plans' batch limits; a plan added later by an admin starts as Basic. */
const LIMITS: Record<string, { files: number; bytes: number }> = {
  basic: { files: 5, bytes: 250 * MB },
  developer: { files: 20, bytes: 1024 * MB },
  business: { files: 100, bytes: 5 * 1024 * MB },
  admin: { files: 100, bytes: 5 * 1024 * MB },
};

/**
 * Batches: a batch is a row here and one job per file in `jobs`, run by the same
 * queue and runner. Plans gain how many files and bytes one batch may hold.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tool', 'text', (col) => col.notNull())
    // receiving (its upload is being read), open (every file is in), cancelled.
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('batches_user_idx').on('batches').column('user_id').execute();

  await db.schema.alterTable('jobs').addColumn('batch_id', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('batch_index', 'integer').execute();
  await db.schema.alterTable('jobs').addColumn('input_name', 'text').execute();
  await db.schema.createIndex('jobs_batch_idx').on('jobs').column('batch_id').execute();

  await db.schema
    .alterTable('plans')
    .addColumn('batch_max_files', 'integer', (col) => col.notNull().defaultTo(LIMITS.basic!.files))
    .execute();
  await db.schema
    .alterTable('plans')
    .addColumn('batch_max_bytes', 'bigint', (col) => col.notNull().defaultTo(LIMITS.basic!.bytes))
    .execute();
  for (const [slug, limit] of Object.entries(LIMITS))
    await db
      .updateTable('plans')
      .set({ batch_max_files: limit.files, batch_max_bytes: sql`${limit.bytes}` })
      .where('slug', '=', slug)
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('batch_max_bytes').execute();
  await db.schema.alterTable('plans').dropColumn('batch_max_files').execute();
  await db.schema.dropIndex('jobs_batch_idx').execute();
  await db.schema.alterTable('jobs').dropColumn('input_name').execute();
  await db.schema.alterTable('jobs').dropColumn('batch_index').execute();
  await db.schema.alterTable('jobs').dropColumn('batch_id').execute();
  await db.schema.dropTable('batches').execute();
}
