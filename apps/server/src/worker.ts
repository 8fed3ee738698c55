import { handleStopsFromStart } from './lib/stop-signals.js';

// Stops are handled before the rest loads: loading the engines' modules takes seconds itself.
const stops = handleStopsFromStart('worker');
console.info(`worker ${process.pid}: starting`);
const [{ runWorker }, { ConfigError }] = await Promise.all([
  import('./worker-run.js'),
  import('./config.js'),
]);

runWorker(stops).catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
