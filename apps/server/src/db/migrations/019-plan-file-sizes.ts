import { sql, type Kysely } from 'kysely';

const MB = 1000 * 1000;
const GB = 1000 * MB;

/**
 * The seeded plans' largest audio or video file. Images keep 100 MB, the largest image tool's
 * own limit, so every image tool takes what it took before. A plan added later by an admin
 * starts as Basic.
 */
const MEDIA: Record<string, number> = {
  basic: 100 * MB,
  developer: GB,
  business: 4 * GB,
  admin: 4 * GB,
};

/** Plans gain the largest file one upload may hold, for image tools and for audio/video tools. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('plans')
    .addColumn('image_max_bytes', 'bigint', (col) => col.notNull().defaultTo(100 * MB))
    .execute();
  await db.schema
    .alterTable('plans')
    .addColumn('media_max_bytes', 'bigint', (col) => col.notNull().defaultTo(MEDIA.basic!))
    .execute();
  for (const [slug, bytes] of Object.entries(MEDIA))
    await db
      .updateTable('plans')
      .set({ media_max_bytes: sql`${bytes}` })
      .where('slug', '=', slug)
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plans').dropColumn('media_max_bytes').execute();
  await db.schema.alterTable('plans').dropColumn('image_max_bytes').execute();
}
