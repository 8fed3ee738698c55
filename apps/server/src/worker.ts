import { pino } from 'pino';
import { APP_VERSION } from './app-context.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { detectEngines } from './media/engines.js';
import { createServices } from './services/services.js';
import { startJobSystem } from './services/jobs/job-system.js';

/**
 * `npm run worker`: runs audio and video jobs from the Redis queue, WORKERS at a time. Any
 * number may run, on any machine that shares DATA_DIR and the database (docs/operations.md).
 */
async function main() {
  const config = loadConfig();
  if (!config.redisUrl) throw new ConfigError('A worker needs REDIS_URL: it takes jobs from Redis');
  if (config.jobs.workers === 0) throw new ConfigError('A worker needs WORKERS of 1 or more');
  const log = pino({ level: config.logLevel });
  const database = await openDatabase(config);
  const engines = await detectEngines(config.engines);
  if (!engines.ffmpeg.available)
    log.warn('ffmpeg not found: every job this worker takes will fail');
  const context = { config, database, engines, version: APP_VERSION };
  const jobs = await startJobSystem(context, createServices(context, log).quotas, log);

  const shutdown = async (signal: string) => {
    log.info(`${signal} received: interrupting running jobs and stopping`);
    await jobs.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  log.info(
    `Refract ${APP_VERSION} worker: ${config.jobs.workers} at a time from "${config.jobs.queueName}"`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
