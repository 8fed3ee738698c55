import { ConfigError, loadConfig } from './config.js';
import { handleProcessFaults } from './lib/process-faults.js';
import { openDatabaseAtStart } from './db/open-at-start.js';
import { detectEngines, keepProbingSilentEngines } from './media/engines.js';
import { APP_VERSION } from './app-context.js';
import { buildApp } from './app.js';
import { trackOpenRequests } from './plugins/drain.js';
import { createMetrics } from './metrics/metrics.js';
import { serveMetricsPort } from './metrics/metrics-routes.js';

async function main() {
  const config = loadConfig();
  const database = await openDatabaseAtStart(config, (line) => console.warn(line));
  const engines = await detectEngines(config.engines);
  keepProbingSilentEngines(engines, config.engines);
  const metrics = createMetrics(config);
  metrics.watchEngines(engines);
  const app = await buildApp({ config, database, engines, version: APP_VERSION, metrics });
  const requests = trackOpenRequests(app);

  for (const [name, engine] of Object.entries(engines)) {
    if (!engine.available)
      app.log.warn(`engine ${name} not found: the tools that need it are disabled`);
  }

  // Stop accepting, let requests and jobs finish within SHUTDOWN_TIMEOUT, then end the rest
  // (requests answered 503, jobs handed back to the queue); exit whatever else hangs.
  const shutdown = async (signal: string, exitCode = 0) => {
    const timeout = config.shutdownTimeoutMs;
    app.log.info(`${signal} received: draining for up to ${timeout / 1000} s`);
    setTimeout(() => requests.endOpenRequests(), timeout).unref();
    setTimeout(() => {
      app.log.warn('shutdown overran SHUTDOWN_TIMEOUT; exiting');
      process.exit(1);
    }, timeout + 5000).unref();
    await app.close();
    await database.close();
    process.exit(exitCode);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  handleProcessFaults(app.log, (reason) => void shutdown(reason, 1));

  await app.listen({ port: config.port, host: config.host });
  // Closed with the process: a scrape during the drain still answers.
  await serveMetricsPort(config, metrics, app.log);
  app.log.info(`Refract ${APP_VERSION} on ${config.publicUrl} (db: ${database.kind})`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('Refract failed to start:', err);
  }
  process.exit(1);
});
