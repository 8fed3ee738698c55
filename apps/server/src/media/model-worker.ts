import { Worker, type TransferListItem } from 'node:worker_threads';
import { AppError } from '../lib/app-error.js';

interface Pending {
  worker: Worker;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * A model kept loaded in one worker thread (loading takes seconds, an inference a fraction of
 * one): inferences run there one after another, never on the event loop. The worker's `code`
 * (a CommonJS string) answers each `{ id, ...input }` message with `{ id, result }` or
 * `{ id, error }`. A worker that dies fails what it had and is started again on the next call.
 * At most `maxWaiting` calls wait; past that 503 server_busy, rather than a queue without end.
 */
export class ModelWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  /** Messages the worker has not answered yet, those whose caller gave up included. */
  private queued = 0;

  constructor(
    private readonly code: string,
    private readonly workerData: unknown,
    private readonly options: { maxWaiting: number; heapMb: number; busyMessage: string },
  ) {}

  /** Runs one inference. A `signal` that aborts first answers at once; the worker's answer is dropped. */
  run<T>(input: object, signal?: AbortSignal, transferList?: TransferListItem[]): Promise<T> {
    signal?.throwIfAborted();
    if (this.queued >= this.options.maxWaiting)
      throw new AppError(503, 'server_busy', this.options.busyMessage, { 'retry-after': '5' });
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

  /** Ends the worker (tests, shutdown); the next call starts another. */
  async close() {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.code, {
      eval: true,
      workerData: this.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
      execArgv: [],
    });
    worker.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      this.queued -= 1;
      if (this.queued === 0) worker.unref();
      const call = this.pending.get(message.id);
      if (!call) return;
      if (message.error !== undefined) call.reject(new Error(message.error));
      else call.resolve(message.result);
    });
    const fail = (err: Error) => {
      if (this.worker === worker) {
        this.worker = undefined;
        this.queued = 0;
      }
      for (const call of [...this.pending.values()]) if (call.worker === worker) call.reject(err);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the model's worker stopped (exit ${code})`)));
    // An idle model must not keep a process alive that has nothing else to do; a call under
    // way does (unref'd after the listeners, as adding a 'message' listener refs it again).
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
