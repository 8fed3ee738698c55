import { createRequire } from 'node:module';
import type { Sharp } from 'sharp';
import { AppError } from '../../lib/app-error.js';
import { runWorkerTask } from '../worker-task.js';
import { inImageSlot } from './slots.js';

/** Tracing is pure JavaScript; bound its input so a large photo cannot take minutes. */
const MAX_TRACE_SIDE = 1500;
/** Past this the trace is stopped; a 1500 px photo traces in a few seconds on an idle core. */
const TRACE_TIME_LIMIT_MS = 60_000;
/** A photo traced into 4 tone layers can be many paths; a result past this is refused. */
const MAX_SVG_BYTES = 20 * 1024 * 1024;

/**
 * potrace in a worker thread (worker-task.ts), so tracing never blocks the server's event loop,
 * and is stopped at its time limit or when the client goes away.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const potrace = require(workerData.potrace);
potrace.posterize(Buffer.from(workerData.png), { steps: 4 }, (err, svg) =>
  parentPort.postMessage(err ? { error: String(err.message || err) } : { result: svg }));
`;

function traceInWorker(png: Buffer, signal?: AbortSignal): Promise<string> {
  const potrace = createRequire(import.meta.url).resolve('potrace');
  return runWorkerTask<string>(
    WORKER,
    { png, potrace },
    { signal, timeoutMs: TRACE_TIME_LIMIT_MS, heapMb: 1024 },
  );
}

/**
 * A real vector: the image traced into SVG paths by potrace, in 4 tone layers (not a
 * raster wrapped in an <svg>).
 */
export async function traceToSvg(pipeline: Sharp, signal?: AbortSignal): Promise<string> {
  const png = await inImageSlot(
    () =>
      pipeline
        .flatten({ background: '#ffffff' })
        .resize({
          width: MAX_TRACE_SIDE,
          height: MAX_TRACE_SIDE,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .png()
        .toBuffer(),
    signal,
  );
  const svg = await inImageSlot(() => traceInWorker(png, signal), signal);
  if (Buffer.byteLength(svg) > MAX_SVG_BYTES)
    throw new AppError(
      422,
      'image_too_large',
      'This image is too detailed to trace into a vector; try a simpler image such as a logo',
    );
  return svg;
}
