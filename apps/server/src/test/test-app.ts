import { randomUUID } from 'node:crypto';
import { loadConfig } from '../config.js';
import { detectEngines, type Engines } from '../media/engines.js';
import { APP_VERSION } from '../app-context.js';
import { buildApp, type App, type BuildOptions } from '../app.js';
import { createMetrics } from '../metrics/metrics.js';
import type { DatabaseKind } from '../db/database.js';
import { createTestDatabase, type TestDatabase } from './databases.js';
import { TEST_ADMIN } from './accounts.js';

let engines: Promise<Engines> | undefined;

export interface TestApp {
  app: App;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The real app on a fresh database, ready for `app.inject`. */
export async function createTestApp(
  kind: DatabaseKind = 'sqlite',
  options: {
    env?: Record<string, string>;
    beforeReady?: (app: App) => void;
    /** Replaces what engine detection found (to test a server without one). */
    engines?: Partial<Engines>;
    /** Another app's database (a restart); it stays open when this app closes. */
    database?: TestDatabase;
    /** The cores the defaults are sized for (this machine's when unset). */
    cores?: number;
  } & BuildOptions = {},
): Promise<TestApp> {
  const env = options.env ?? {};
  const database = options.database ?? (await createTestDatabase(kind));
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: database.options.dataDir,
      WEB_DIST_DIR: env.WEB_DIST_DIR ?? '/nonexistent-web-dist',
      REDIS_URL: process.env.REDIS_URL ?? '',
      // Each app its own BullMQ queue, so parallel test files never take each other's jobs.
      QUEUE_NAME: `test-${randomUUID()}`,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      // Closing a test app ends its jobs at once (the drain itself is tested on its own).
      SHUTDOWN_TIMEOUT: '0',
      ...env,
    },
    options.cores,
  );
  engines ??= detectEngines(config.engines);
  const found = { ...(await engines), ...options.engines };
  const metrics = createMetrics(config);
  metrics.watchEngines(found);
  const app = await buildApp(
    { config, database, engines: found, version: APP_VERSION, metrics },
    { logStream: options.logStream, onRoute: options.onRoute },
  );
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      if (!options.database) await database.dispose();
    },
  };
}
