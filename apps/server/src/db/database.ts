import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrator.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…` selects PostgreSQL; otherwise SQLite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL only: run inside this schema (tests use a fresh one per run). */
  schema?: string;
}

// COUNT(*) and other int8 results arrive as strings from pg; every count we keep fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

function openSqlite(dataDir: string): Kysely<Database> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(join(dataDir, 'refract.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: reusingStatements(sqlite) }),
  });
}

/**
 * Kysely prepares every query afresh; preparing costs about as much as running a small query.
 * Statements are kept by their SQL and reused (Kysely runs one query at a time on SQLite, and we
 * never stream, so a statement is never busy when it is asked for again).
 */
function reusingStatements(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        // Queries are built from a fixed set of shapes; the bound guards against one that is not.
        if (statements.size >= 500) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function openPostgres(connectionString: string, schema?: string): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    // A database that does not answer fails a request in 5 s (500, logged) instead of hanging it.
    connectionTimeoutMillis: 5000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Serialises migrations between processes starting together on one PostgreSQL. */
const MIGRATION_LOCK = 18_003;

/**
 * Kysely's own migration lock lives in a table the first migration run creates, so processes
 * starting together on an empty database race to create it ("relation does not exist"); a
 * session advisory lock taken first lets them migrate one after another.
 */
function migrateExclusively(db: Kysely<Database>, schema?: string) {
  return db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`.execute(connection);
    try {
      await migrateToLatest(db, schema);
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
    }
  });
}

/** Opens the database the configuration names and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const kind: DatabaseKind = options.databaseUrl ? 'postgres' : 'sqlite';
  const db =
    kind === 'postgres'
      ? openPostgres(options.databaseUrl!, options.schema)
      : openSqlite(options.dataDir);
  try {
    if (kind === 'postgres') await migrateExclusively(db, options.schema);
    else await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, kind, close: () => db.destroy() };
}
