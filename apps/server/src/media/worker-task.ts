import { Worker, type TransferListItem } from 'node:worker_threads';
import { processingTimeout } from './image/slots.js';

/** What a task's worker posts back once: its result, or why it failed. */
export type TaskMessage<T> = { result: T } | { error: string; code?: string };

export interface WorkerTaskOptions {
  /** Aborts the task: the worker is terminated at once (its memory goes with it). */
  signal?: AbortSignal;
  timeoutMs: number;
  /** The worker's V8 heap bound; WebAssembly memory is bounded by the engine's own limits. */
  heapMb: number;
  transferList?: TransferListItem[];
}

/**
 * Runs `code` (a CommonJS string: it needs no build step of its own) in a worker thread, so a
 * decoder, encoder or model never blocks the server's event loop. The worker is ended when it
 * answers, at the time limit or when `signal` aborts, so nothing it allocated outlives the task.
 * A failure comes back as an Error whose message is the worker's, with `code` when it set one.
 */
export function runWorkerTask<T>(
  code: string,
  workerData: unknown,
  { signal, timeoutMs, heapMb, transferList }: WorkerTaskOptions,
): Promise<T> {
  signal?.throwIfAborted();
  const worker = new Worker(code, {
    eval: true,
    workerData,
    transferList,
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    // The server's own flags (a preloaded module, an inspector) are not the task's.
    execArgv: [],
    stdout: false,
    stderr: false,
  });
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (act: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      act();
    };
    const timer = setTimeout(() => settle(() => reject(processingTimeout())), timeoutMs);
    const onAbort = () => settle(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: TaskMessage<T>) =>
      settle(() => {
        if ('result' in message) return resolve(message.result);
        reject(Object.assign(new Error(message.error), { code: message.code }));
      }),
    );
    // A worker that runs out of heap ends with ERR_WORKER_OUT_OF_MEMORY.
    worker.once('error', (err) => settle(() => reject(err)));
    worker.once('exit', (exitCode) =>
      settle(() => reject(new Error(`the worker stopped (exit ${exitCode})`))),
    );
  });
}
