import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';
import { openDatabase, type DatabaseHandle, type DatabaseKind } from '../db/database.js';

/** PostgreSQL suites run only when TEST_DATABASE_URL is set (CI sets it). */
export const postgresUrl = process.env.TEST_DATABASE_URL || undefined;

export interface TestDatabase extends DatabaseHandle {
  /** Options that open the same database again (for building an app on it). */
  options: { databaseUrl?: string; dataDir: string; schema?: string };
  /** Closes the handle and removes the temp dir (PostgreSQL schemas go after the run). */
  dispose(): Promise<void>;
}

/** A fresh, migrated database: a temp SQLite file, or a new PostgreSQL schema. */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'refract-test-'));
  if (kind === 'sqlite') {
    const handle = await openDatabase({ dataDir });
    return {
      ...handle,
      options: { dataDir },
      async dispose() {
        await handle.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  // Dropped after the run by test/global-setup.ts (see there why not here).
  const schema = `test_${process.env.REFRACT_TEST_RUN ?? 'adhoc'}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const options = { databaseUrl: postgresUrl, dataDir, schema };
  const handle = await openDatabase(options);
  return {
    ...handle,
    options,
    async dispose() {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a suite once per database: always on SQLite, and on PostgreSQL when
 * TEST_DATABASE_URL is set (otherwise the PostgreSQL run is reported as skipped).
 */
export function describeEachDatabase(name: string, suite: (kind: DatabaseKind) => void) {
  describe(`${name} [sqlite]`, () => suite('sqlite'));
  const describePg = postgresUrl ? describe : describe.skip;
  const label = postgresUrl ? '[postgres]' : '[postgres: skipped, TEST_DATABASE_URL not set]';
  describePg(`${name} ${label}`, () => suite('postgres'));
}
