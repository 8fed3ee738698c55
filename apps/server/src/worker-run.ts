import { pino } from 'pino';
import type { handleStopsFromStart } from './lib/stop-signals.js';
import { handleProcessFaults } from './lib/process-faults.js';
import { APP_VERSION } from './app-context.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabaseAtStart } from './db/open-at-start.js';
import { detectEngines, keepProbingSilentEngines } from './media/engines.js';
import { configureImageWork } from './media/image/image-work.js';
import { createServices } from './services/services.js';
import { startJobSystem } from './services/jobs/job-system.js';
import { settingsRepository } from './db/repositories/settings-repository.js';
import { recordVolumeMarker, volumeMismatch } from './services/health/volume-marker.js';
import { createMetrics } from './metrics/metrics.js';
import { serveMetricsPort } from './metrics/metrics-routes.js';

/**
 * `npm run worker`: runs jobs from the Redis queue, WORKERS audio and video jobs and
 * IMAGE_WORKERS image jobs (batch files) at a time. Any
 * number may run, on any machine that shares DATA_DIR and the database (docs/operations.md).
 */
export async function runWorker(stops: ReturnType<typeof handleStopsFromStart>) {
  const config = loadConfig();
  if (!config.redisUrl) throw new ConfigError('A worker needs REDIS_URL: it takes jobs from Redis');
  if (config.jobs.workers === 0) throw new ConfigError('A worker needs WORKERS of 1 or more');
  const log = pino({ level: config.logLevel });
  configureImageWork(config.jobs);
  const database = await openDatabaseAtStart(config, (line) => log.warn(line));
  const engines = await detectEngines(config.engines);
  keepProbingSilentEngines(engines, config.engines);
  if (!engines.ffmpeg.available)
    log.warn('ffmpeg not found: every job this worker takes will fail');
  const metrics = createMetrics(config);
  metrics.watchEngines(engines);
  const context = { config, database, engines, version: APP_VERSION, metrics };
  // A worker that cannot see the shared volume would fail every job it takes: it does not start.
  const settings = settingsRepository(database.db);
  await recordVolumeMarker(config.dataDir, settings);
  const mismatch = await volumeMismatch(config.dataDir, settings);
  if (mismatch) {
    await database.close();
    throw new ConfigError(`This worker's DATA_DIR is not the shared one: ${mismatch}`);
  }
  await serveMetricsPort(config, metrics, log);
  stops.holdStops();
  const jobs = await startJobSystem(context, createServices(context, log).quotas, log);

  // Takes no more jobs, lets running ones finish within SHUTDOWN_TIMEOUT, then hands the rest
  // back to the queue; exits even if Redis or the database never answer.
  const shutdown = async (signal: string, exitCode = 0) => {
    const timeout = config.shutdownTimeoutMs;
    log.info(`${signal} received: finishing running jobs for up to ${timeout / 1000} s`);
    setTimeout(() => {
      log.warn('shutdown overran SHUTDOWN_TIMEOUT; exiting');
      process.exit(1);
    }, timeout + 5000).unref();
    await jobs.close(timeout);
    await database.close();
    process.exit(exitCode);
  };
  stops.running((signal) => void shutdown(signal));
  handleProcessFaults(log, (reason) => void shutdown(reason, 1));
  log.info(
    `Refract ${APP_VERSION} worker: ${config.jobs.workers} audio/video and ${config.jobs.imageWorkers} image jobs at a time from "${config.jobs.queueName}"`,
  );
}
