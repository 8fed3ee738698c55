import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Sharp } from 'sharp';
import { AppError } from '../../lib/app-error.js';
import { inImageSlot } from './slots.js';

/** Tracing is pure JavaScript; bound its input so a large photo cannot take minutes. */
const MAX_TRACE_SIDE = 1500;
/** Past this the trace is stopped; a 1500 px photo traces in a few seconds on an idle core. */
const TRACE_TIME_LIMIT_MS = 60_000;
/** A photo traced into 4 tone layers can be many paths; a result past this is refused. */
const MAX_SVG_BYTES = 20 * 1024 * 1024;

/**
 * Runs potrace in a worker thread, so tracing never blocks the server's event loop, and so it
 * can be stopped (terminated) at its time limit or when the client goes away. The worker's
 * code is a CommonJS string: it needs no build step of its own.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const potrace = require(workerData.potrace);
potrace.posterize(Buffer.from(workerData.png), { steps: 4 }, (err, svg) =>
  parentPort.postMessage(err ? { error: String(err.message || err) } : { svg }));
`;

function traceInWorker(png: Buffer, signal?: AbortSignal): Promise<string> {
  const potrace = createRequire(import.meta.url).resolve('potrace');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { png, potrace },
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  return new Promise<string>((resolve, reject) => {
    const stop = (err: Error) => {
      void worker.terminate();
      reject(err);
    };
    const timer = setTimeout(
      () => stop(new AppError(504, 'processing_timeout', 'Tracing took too long and was stopped')),
      TRACE_TIME_LIMIT_MS,
    );
    const onAbort = () => stop(signal!.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    worker.once('message', (message: { svg?: string; error?: string }) => {
      done();
      void worker.terminate();
      if (message.svg === undefined) reject(new Error(message.error ?? 'potrace failed'));
      else resolve(message.svg);
    });
    worker.once('error', (err) => {
      done();
      reject(err);
    });
  });
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
  const svg = await traceInWorker(png, signal);
  if (Buffer.byteLength(svg) > MAX_SVG_BYTES)
    throw new AppError(
      422,
      'image_too_large',
      'This image is too detailed to trace into a vector; try a simpler image such as a logo',
    );
  return svg;
}
