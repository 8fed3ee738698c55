import { sql } from 'kysely';
import type { DatabaseHandle } from './database.js';

/** Serialises start-up seeding between replicas on one PostgreSQL (its own advisory lock key). */
const STARTUP_LOCK = 18_002;

/**
 * Runs `work` (default plans, the ADMIN_EMAIL account) while holding a PostgreSQL advisory
 * lock, so replicas started together seed one after another: the second finds the first's
 * rows instead of failing on a duplicate key. SQLite has one writer per file already.
 */
export async function withStartupLock<T>(database: DatabaseHandle, work: () => Promise<T>) {
  if (database.kind !== 'postgres') return work();
  return database.db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${STARTUP_LOCK})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(${STARTUP_LOCK})`.execute(connection);
    }
  });
}
