import { ConfigError } from '../config.js';
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from './database.js';
import { isDatabaseUnavailable } from './unavailable.js';

const RETRY_MS = 1_000;

/** Which setting points where, without its password: `DATABASE_URL (postgres://u@host:5432/db)`. */
export function databaseSetting(options: DatabaseOptions): string {
  if (!options.databaseUrl) return `DATA_DIR (${options.dataDir}, SQLite)`;
  try {
    const url = new URL(options.databaseUrl);
    url.password = '';
    return `DATABASE_URL (${url.toString()})`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * Opens the database at start-up, waiting up to DB_CONNECT_TIMEOUT for one that does not
 * answer yet (processes started with their database survive its slower start). Says so in
 * one line, naming the setting and where it points; one that never answers stops the start
 * with one line too (a ConfigError: no stack trace), and any other error is thrown as it is.
 */
export async function openDatabaseAtStart(
  options: DatabaseOptions & { dbConnectTimeoutMs: number },
  say: (line: string) => void,
): Promise<DatabaseHandle> {
  const startedAt = Date.now();
  let told = false;
  for (;;) {
    try {
      return await openDatabase(options);
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      const reason = (err as Error).message || (err as NodeJS.ErrnoException).code || String(err);
      const waited = Date.now() - startedAt;
      if (waited >= options.dbConnectTimeoutMs)
        throw new ConfigError(
          `The database at ${databaseSetting(options)} did not answer within DB_CONNECT_TIMEOUT (${options.dbConnectTimeoutMs / 1000} s): ${reason}`,
        );
      if (!told)
        say(
          `The database at ${databaseSetting(options)} does not answer (${reason}); retrying for up to ${options.dbConnectTimeoutMs / 1000} s (DB_CONNECT_TIMEOUT)`,
        );
      told = true;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}
