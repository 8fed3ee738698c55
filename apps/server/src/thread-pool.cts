/**
 * Preloaded with `node --require` by `npm start` and `npm run worker`, before any module loads:
 * libuv sizes its thread pool on first use, and Node's ES module loader already uses it to read
 * the entry point, so setting this from an imported module is too late (measured on Node 20).
 * The pool is shared by file I/O, DNS, zlib, crypto and sharp: 4 threads for the rest plus one
 * for each image pipeline that may run at once (IMAGE_WORKERS, one per core by default: see
 * media/image/slots.ts), so image work never leaves uploads waiting. An operator's own
 * UV_THREADPOOL_SIZE wins.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with --require, so CommonJS
const { availableParallelism } = require('node:os') as typeof import('node:os');
const imageWorkers = Number.parseInt(process.env.IMAGE_WORKERS ?? '', 10);
const slots = imageWorkers >= 1 ? imageWorkers : availableParallelism();
process.env.UV_THREADPOOL_SIZE ??= String(4 + slots);

// The allocator scripts/start.sh preloaded is for this process: child processes (ffmpeg,
// Chromium, libheif) inherit the environment and keep their own allocators.
const preloaded = process.env.REFRACT_PRELOADED;
if (preloaded && process.env.LD_PRELOAD) {
  const rest = process.env.LD_PRELOAD.split(':').filter((lib) => lib !== preloaded);
  if (rest.length > 0) process.env.LD_PRELOAD = rest.join(':');
  else delete process.env.LD_PRELOAD;
  delete process.env.REFRACT_PRELOADED;
}
