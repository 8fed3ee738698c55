import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Selectable } from 'kysely';
import type pg from 'pg';
import type { Database, UsersTable } from './schema.js';
import { migrateToLatest } from './migrator.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** The committed version of a cache (a `cache_versions` row); see committedReads. */
  cacheVersion(name: string): Promise<number | undefined>;
  /**
   * A user's committed row, read on every signed-in request; on SQLite only (see
   * committedReads), PostgreSQL reads it through Kysely like any other row.
   */
  committedUser?: (id: string) => Promise<Selectable<UsersTable> | undefined>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…` selects PostgreSQL; otherwise SQLite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL only: run inside this schema (tests use a fresh one per run). */
  schema?: string;
  /** PostgreSQL only: the longest one query may take (DB_QUERY_TIMEOUT); 20 s when unset. */
  dbQueryTimeoutMs?: number;
}

const DEFAULT_QUERY_TIMEOUT_MS = 20_000;
/** A connection to a database that does not answer is given up after this long. */
const CONNECT_TIMEOUT_MS = 5_000;

/** The PostgreSQL driver, loaded only when DATABASE_URL asks for it (memory SQLite never needs). */
function loadPg(): typeof pg {
  const driver = createRequire(import.meta.url)('pg') as typeof pg;
  // COUNT(*) and other int8 results arrive as strings from pg; every count we keep fits a double.
  driver.types.setTypeParser(driver.types.builtins.INT8, (value) => Number(value));
  return driver;
}

function openSqlite(dataDir: string): Kysely<Database> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(sqlitePath(dataDir));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: reusingStatements(sqlite) }),
  });
}

const sqlitePath = (dataDir: string) => join(dataDir, 'refract.sqlite');

/**
 * Reads made before nearly every answer, so they must cost next to nothing: cache versions
 * (plans on every page and quota check) and the signed-in user's row (every signed-in request).
 * On SQLite each is a synchronous prepared statement on a second, read-only connection: through
 * Kysely the version was a third of a plans request's CPU and the user's row about a seventh of a
 * stats request's; and on the main connection a read could see a write still inside a
 * transaction (WAL: the second connection sees only what is committed). On PostgreSQL the version
 * is one query and the user's row is left to the repository.
 */
function committedReads(kind: DatabaseKind, db: Kysely<Database>, dataDir: string) {
  if (kind === 'postgres') {
    // Compiled once (it runs before every cached read); the name is its one parameter.
    const query = db
      .selectFrom('cache_versions')
      .select('version')
      .where('name', '=', '')
      .compile();
    return {
      cacheVersion: async (name: string) =>
        (
          await db.executeQuery<{ version: number }>({
            ...query,
            parameters: [name],
          })
        ).rows[0]?.version,
      close() {},
    };
  }
  const reader = new SQLite(sqlitePath(dataDir), { readonly: true });
  const version = reader
    .prepare<[string], number>('SELECT version FROM cache_versions WHERE name = ?')
    .pluck();
  const user = reader.prepare<[string], Selectable<UsersTable>>('SELECT * FROM users WHERE id = ?');
  return {
    cacheVersion: async (name: string) => version.get(name),
    committedUser: async (id: string) => user.get(id),
    close: () => reader.close(),
  };
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

/**
 * Every wait on PostgreSQL has a deadline, so a database that is down or unreachable fails a
 * request (503, db/unavailable.ts) instead of hanging it: connecting waits CONNECT_TIMEOUT_MS;
 * a statement runs at most `queryTimeoutMs` (the server cancels it and the connection stays
 * usable), and the client gives up 2 s later when the server does not even answer that
 * (a network that drops packets).
 */
function openPostgres(
  connectionString: string,
  schema: string | undefined,
  queryTimeoutMs: number,
): Kysely<Database> {
  const settings = [`-c statement_timeout=${queryTimeoutMs}`];
  if (schema) settings.push(`-c search_path=${schema}`);
  const pool = new (loadPg().Pool)({
    connectionString,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: queryTimeoutMs + 2000,
    options: settings.join(' '),
  });
  // A connection that breaks (the server restarted, the network dropped) emits 'error', idle
  // or in use; its query has already failed with the same error and the pool drops it, but an
  // 'error' event nobody listens to would end the whole process.
  const lost = (err: Error) => console.warn(`database connection lost: ${err.message}`);
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
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
      ? openPostgres(
          options.databaseUrl!,
          options.schema,
          options.dbQueryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
        )
      : openSqlite(options.dataDir);
  try {
    if (kind === 'postgres') await migrateExclusively(db, options.schema);
    else await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  // Opened after migrating: the read-only connection needs the table to exist.
  const { close, ...reads } = committedReads(kind, db, options.dataDir);
  return {
    db,
    kind,
    ...reads,
    async close() {
      close();
      await db.destroy();
    },
  };
}
