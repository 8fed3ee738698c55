import { AppError } from '../../lib/app-error.js';

/**
 * At most this many sharp pipelines run at once in this process: IMAGE_WORKERS, one per core by
 * default (configureImageWork). Each running pipeline holds one of libuv's threads, which file
 * I/O (uploads, temp files) shares: without a bound, one request with many areas took every
 * thread and another user's upload timed out. `npm start` also grows libuv's pool by this many
 * threads (thread-pool.cts).
 */
let slots = 2;

export const imageSlots = () => slots;

/** Sets the bound (at start-up, from IMAGE_WORKERS); pipelines already running keep theirs. */
export function setImageSlots(count: number) {
  slots = Math.max(1, count);
}

/** The longest a block of text may take to render, outline included. */
export const TEXT_RENDER_MS = 10_000;

/**
 * The longest one step may hold a slot. Past it the step's signal aborts (a child process is
 * killed, a worker thread terminated), the step fails with 504 processing_timeout and the slot
 * is freed, whatever the step was doing: a hostile file may cost its sender a minute of one
 * slot, never the server its slots. sharp pipelines also carry libvips' own 60 s timeout.
 */
let slotLimitMs = 60_000;

/** Sets the longest hold of a slot (tests shorten it to see a step stopped). */
export function setImageSlotLimit(ms: number) {
  slotLimitMs = ms;
}

let active = 0;
const waiting: (() => void)[] = [];
const counters = { peak: 0, started: 0, overran: 0 };

/**
 * Live counters, for tests and logs: running now, most ever at once, pipelines started, steps
 * stopped at the slot limit, queued.
 */
export function imageSlotCounters() {
  return { ...counters, active, waiting: waiting.length };
}

/** The reason an image tool stops when its client has gone: nobody gets the answer. */
export const clientGone = () =>
  new AppError(409, 'job_cancelled', 'The request was cancelled: the client went away');

function release() {
  const next = waiting.shift();
  if (next) next();
  else active -= 1;
}

/** Waits for a slot; a signal that aborts while waiting takes the caller out of the queue. */
function acquire(signal?: AbortSignal): Promise<void> {
  if (active < slots) {
    active += 1;
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      const at = waiting.indexOf(grant);
      if (at >= 0) waiting.splice(at, 1);
      reject(signal!.reason);
    };
    // The slot passes straight from the releasing pipeline to this one (active is unchanged).
    const grant = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    waiting.push(grant);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs one step (a sharp pipeline's toFile, toBuffer or metadata, or a decoder in a worker or
 * child process) once a slot is free, for at most the slot limit. Every step of an image tool
 * goes through here, so a tool whose request was aborted stops at its next step; `work` gets a
 * signal that aborts with the request or at the limit, which a worker or child must honour.
 */
export async function inImageSlot<T>(
  work: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  signal?.throwIfAborted();
  await acquire(signal);
  try {
    signal?.throwIfAborted();
    counters.started += 1;
    counters.peak = Math.max(counters.peak, active);
    return await withTimeLimit(slotLimitMs, signal, work, () => (counters.overran += 1));
  } finally {
    release();
  }
}

export const processingTimeout = () =>
  new AppError(504, 'processing_timeout', 'Processing took too long and was stopped');

/**
 * Runs `work` for at most `ms`, else fails with 504 processing_timeout (and calls `onLimit`).
 * `work` gets a signal that aborts at the limit or when `signal` does, so its next step never
 * starts and a worker or child process it runs is ended.
 */
export async function withTimeLimit<T>(
  ms: number,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
  onLimit?: () => void,
): Promise<T> {
  signal?.throwIfAborted();
  const controller = new AbortController();
  const timer = setTimeout(() => {
    onLimit?.();
    controller.abort(processingTimeout());
  }, ms);
  const follow = () => controller.abort(signal!.reason);
  signal?.addEventListener('abort', follow, { once: true });
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {
      once: true,
    });
  });
  try {
    return await Promise.race([work(controller.signal), stopped]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', follow);
  }
}
