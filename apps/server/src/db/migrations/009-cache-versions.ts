import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** The tables whose rows the `plans` cache holds (see db/repositories/plans-cache.ts). */
const PLAN_TABLES = ['plans', 'plan_quotas'];

/**
 * A version number per cached data set, bumped by triggers on every write to its tables, in
 * the writing transaction. Each process reads the number (one indexed row) before answering
 * from memory, so an edit made by any process, or by hand in SQL, is seen by all of them at
 * once. Triggers rather than code: a write added later (a new admin action) cannot forget it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cache_versions')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.insertInto('cache_versions').values({ name: 'plans', version: 0 }).execute();
  const bump = sql.raw(`UPDATE cache_versions SET version = version + 1 WHERE name = 'plans'`);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`CREATE FUNCTION bump_plans_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${bump}; RETURN NULL; END $$`.execute(db);
    for (const table of PLAN_TABLES)
      await sql`CREATE TRIGGER ${sql.raw(`${table}_bump_plans_version`)}
        AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_plans_version()`.execute(db);
    return;
  }
  for (const table of PLAN_TABLES)
    for (const event of ['INSERT', 'UPDATE', 'DELETE'])
      await sql`CREATE TRIGGER ${sql.raw(`${table}_${event.toLowerCase()}_bump_plans_version`)}
        AFTER ${sql.raw(event)} ON ${sql.table(table)} BEGIN ${bump}; END`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of PLAN_TABLES)
      await sql`DROP TRIGGER ${sql.raw(`${table}_bump_plans_version`)} ON ${sql.table(table)}`.execute(
        db,
      );
    await sql`DROP FUNCTION bump_plans_version()`.execute(db);
  } else {
    for (const table of PLAN_TABLES)
      for (const event of ['insert', 'update', 'delete'])
        await sql`DROP TRIGGER ${sql.raw(`${table}_${event}_bump_plans_version`)}`.execute(db);
  }
  await db.schema.dropTable('cache_versions').execute();
}
