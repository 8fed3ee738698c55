import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** The tables whose rows a user's figures (plan, period, usage) are read from, per user. */
const ACCOUNT_TABLES = ['subscriptions', 'usage_counters'];

/**
 * `users.account_version`, bumped by triggers on every write to the user's subscription or
 * usage counters, in the writing transaction. The sign-in already reads the user's row on
 * every request, so a process that remembers the user's figures (services/account-figures.ts)
 * learns from that row, at no extra read, whether any process has charged or changed them
 * since. Triggers rather than code, as for the plans' cache version: a write added later
 * cannot forget it. Per user, not one global number, so one user's charge neither waits on
 * another's nor empties every user's copy.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('account_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`CREATE FUNCTION bump_account_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          UPDATE users SET account_version = account_version + 1 WHERE id = OLD.user_id;
        END IF;
        IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
          UPDATE users SET account_version = account_version + 1 WHERE id = NEW.user_id;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    for (const table of ACCOUNT_TABLES)
      await sql`CREATE TRIGGER ${sql.raw(`${table}_bump_account_version`)}
        AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)}
        FOR EACH ROW EXECUTE FUNCTION bump_account_version()`.execute(db);
    return;
  }
  for (const table of ACCOUNT_TABLES)
    for (const [event, row] of [
      ['INSERT', 'NEW'],
      ['UPDATE', 'OLD'],
      ['DELETE', 'OLD'],
    ] as const)
      await sql`CREATE TRIGGER ${sql.raw(`${table}_${event.toLowerCase()}_bump_account_version`)}
        AFTER ${sql.raw(event)} ON ${sql.table(table)} BEGIN
          UPDATE users SET account_version = account_version + 1 WHERE id = ${sql.raw(row)}.user_id;
        END`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of ACCOUNT_TABLES)
      await sql`DROP TRIGGER ${sql.raw(`${table}_bump_account_version`)} ON ${sql.table(table)}`.execute(
        db,
      );
    await sql`DROP FUNCTION bump_account_version()`.execute(db);
  } else {
    for (const table of ACCOUNT_TABLES)
      for (const event of ['insert', 'update', 'delete'])
        await sql`DROP TRIGGER ${sql.raw(`${table}_${event}_bump_account_version`)}`.execute(db);
  }
  await db.schema.alterTable('users').dropColumn('account_version').execute();
}
