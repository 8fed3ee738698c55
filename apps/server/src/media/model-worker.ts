import { Worker, type TransferListItem } from 'node:worker_threads';
import { AppError } from '../lib/app-error.js';
import { startModuleWorker } from './module-worker.js';

interface Pending {
  worker: Worker;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * The worker's side of the protocol (CommonJS, put first in a model's worker code):
 * `serve(infer)` answers each `{ id, ...input }` with `{ id, result }`, transferring what
 * `infer` lists, or `{ id, error }`.
 */
export const MODEL_WORKER_SERVE = `
const { parentPort, workerData } = require('node:worker_threads');
const serve = (infer) => parentPort.on('message', async ({ id, ...input }) => {
  try {
    const { result, transfer } = await infer(input);
    parentPort.postMessage({ id, result }, transfer);
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

/**
 * A model unused this long lets its worker go: its heap and WebAssembly memory go back to the
 * system (face detection holds some 290 MB, bench/results/faces.md; upscale's sessions hundreds),
 * and the next call loads the model again, in a second or two. Half a minute: a page's detection
 * and the blur after it, or a batch's files, come closer together than that.
 */
export const MODEL_IDLE_MS = 30_000;

export interface ModelWorkerOptions {
  /** What the model does, for its errors: "Face detection". */
  name: string;
  /** Calls waiting at most; past that 503 server_busy, rather than a queue without end. */
  maxWaiting: number;
  heapMb: number;
  /** How long it stays loaded unused; MODEL_IDLE_MS unless set (a model quick to load, tests). */
  idleMs?: number;
}

/**
 * A model kept loaded in one worker thread (loading takes seconds, an inference a fraction of
 * one): inferences run there one after another, never on the event loop. The worker's `code` is
 * a string starting with MODEL_WORKER_SERVE that calls `serve`, or the URL of a module of ours
 * that calls `serveModel` (serve-model.ts). A worker that fails (the model missing, the
 * runtime broken) answers 503 engine_unavailable; one that dies fails what it had and is started
 * again on the next call, and so is one let go after MODEL_IDLE_MS unused.
 */
/** Which runtime runs a model: onnxruntime's native one, or TF.js on WebAssembly (kept for the benches and the tests that show both agree). */
export type Runtime = 'onnx' | 'tfjs';

/** Every model worker of this process (one per model and runtime, made once, kept). */
const MODEL_WORKERS = new Set<ModelWorker>();

/** How many inferences wait on each model now. */
export const modelQueues = () => [...MODEL_WORKERS].map((worker) => worker.waiting);

export class ModelWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** Messages the worker has not answered yet, those whose caller gave up included. */
  private queued = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly code: string | URL,
    private readonly workerData: unknown,
    private readonly options: ModelWorkerOptions,
  ) {
    MODEL_WORKERS.add(this);
  }

  /** Inferences sent and not answered yet (a gauge of /metrics). */
  get waiting() {
    return { name: this.options.name, queued: this.queued };
  }

  /** Runs one inference. A `signal` that aborts first answers at once; the worker's answer is dropped. */
  run<T>(input: object, signal?: AbortSignal, transferList?: TransferListItem[]): Promise<T> {
    signal?.throwIfAborted();
    if (this.queued >= this.options.maxWaiting)
      throw new AppError(
        503,
        'server_busy',
        `${this.options.name} is busy. Please try again shortly.`,
        { 'retry-after': '5' },
      );
    clearTimeout(this.idle);
    const worker = this.start();
    const id = (this.nextId += 1);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        this.pending.delete(id);
        signal?.removeEventListener('abort', onAbort);
      };
      this.pending.set(id, {
        worker,
        resolve: (value) => (done(), resolve(value as T)),
        reject: (err) => (done(), reject(err)),
      });
      worker.postMessage({ id, ...input }, transferList);
      this.queued += 1;
      worker.ref();
    });
  }

  /** Whether the model's worker is up (loaded, or loading). */
  get loaded() {
    return this.worker !== undefined;
  }

  /** Ends the worker (tests, shutdown); the next call starts another. */
  async close() {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const options = {
      workerData: this.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
      execArgv: [],
    };
    const worker =
      this.code instanceof URL
        ? startModuleWorker(this.code, options)
        : new Worker(this.code, { ...options, eval: true });
    worker.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      this.queued -= 1;
      if (this.queued === 0) {
        worker.unref();
        clearTimeout(this.idle);
        this.idle = setTimeout(() => {
          if (this.worker === worker && this.queued === 0) void this.close();
        }, this.options.idleMs ?? MODEL_IDLE_MS).unref();
      }
      const call = this.pending.get(message.id);
      if (!call) return;
      if (message.error !== undefined) call.reject(this.unavailable(message.error));
      else call.resolve(message.result);
    });
    const fail = (err: AppError) => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.queued = 0;
      }
      for (const call of [...this.pending.values()]) if (call.worker === worker) call.reject(err);
    };
    worker.on('error', (err) => fail(this.unavailable(err.message)));
    worker.on('exit', (code) => fail(this.unavailable(`its worker stopped (exit ${code})`)));
    // An idle model must not keep a process alive that has nothing else to do; a call under
    // way does (unref'd after the listeners, as adding a 'message' listener refs it again).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private unavailable(reason: string) {
    return new AppError(
      503,
      'engine_unavailable',
      `${this.options.name} is not available on this server (${reason})`,
    );
  }
}
