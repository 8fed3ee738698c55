import { createRequire } from 'node:module';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import type { Engines } from './media/engines.js';
import type { Metrics } from './metrics/metrics.js';

/** What the running app is built from; routes receive it instead of reaching for globals. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  engines: Engines;
  version: string;
  /** This process's Prometheus metrics (metrics/metrics.ts). */
  metrics: Metrics;
}

export const APP_VERSION: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;
