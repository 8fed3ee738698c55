import type { Worker } from 'node:worker_threads';
import { AppError } from '../../lib/app-error.js';
import { startModuleWorker } from '../module-worker.js';
import { RENDER_TIMEOUT_MS, type RenderRequest } from './chromium-pages.js';
import { RenderTurns, type RenderTurnsOptions } from './render-turns.js';
import type { ThreadAnswer, ThreadRequest } from './render-thread.js';

export { maxCssHeight, type RenderRequest } from './chromium-pages.js';

/** Two renders at once: one per core. More would only queue inside Chromium. */
const CONCURRENT_RENDERS = 2;
/** One user's renders running and waiting: both slots at most, and nothing queued behind. */
const RENDERS_PER_USER = 2;
/** How long a closing render thread may take to close its browser before it is ended. */
const CLOSE_WAIT_MS = 10_000;

interface Pending {
  image(bytes: Buffer): void;
  reset(): void;
  fail(err: AppError): void;
}

const threadGone = (why: string) =>
  new AppError(503, 'engine_unavailable', `The HTML renderer stopped (${why}); try again`);

/**
 * HTML to image, on the server's side: fair turns between users (RenderTurns), and the render
 * thread that owns Playwright and Chromium (chromium-pages.ts). Playwright is first imported
 * there too, so neither loading it nor decoding a screenshot ever holds the event loop. A thread
 * that dies fails the renders it had; the next render starts another.
 */
export class HtmlRenderer {
  private readonly turns: RenderTurns;
  private thread: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(
    private readonly executablePath: string,
    turns: Partial<RenderTurnsOptions> = {},
  ) {
    this.turns = new RenderTurns({
      slots: CONCURRENT_RENDERS,
      perUser: RENDERS_PER_USER,
      retryAfterSeconds: RENDER_TIMEOUT_MS / 1000,
      ...turns,
    });
  }

  /** Renders in `userId`'s turn (see RenderTurns); 429 too_many_renders past their cap. */
  async render(request: RenderRequest, userId: string): Promise<Buffer> {
    const turn = await this.turns.take(userId);
    return new Promise<Buffer>((resolve, reject) => {
      const id = (this.nextId += 1);
      this.pending.set(id, {
        // The user's turn ends with the image: a client that sends its next render on this
        // answer is not counted twice. The slot is taken until the page has been reset.
        image: (bytes) => (turn.done(), resolve(bytes)),
        reset: () => (this.pending.delete(id), turn.free()),
        fail: (err) => (this.pending.delete(id), turn.free(), reject(err)),
      });
      this.send({ type: 'render', id, request });
    });
  }

  private send(message: ThreadRequest) {
    const thread = (this.thread ??= this.start());
    thread.postMessage(message);
  }

  private start(): Worker {
    const thread = startModuleWorker(new URL('./render-thread.js', import.meta.url), {
      workerData: { executablePath: this.executablePath },
    });
    thread.on('message', (answer: ThreadAnswer) => {
      const call = this.pending.get(answer.id);
      if (!call) return;
      if ('image' in answer)
        call.image(Buffer.from(answer.image.buffer, answer.image.byteOffset, answer.image.length));
      else if ('reset' in answer) call.reset();
      else {
        const { status, code, message, headers } = answer.error;
        call.fail(new AppError(status, code, message, headers));
      }
    });
    const fail = (why: string) => {
      if (this.thread === thread) this.thread = undefined;
      for (const call of [...this.pending.values()]) call.fail(threadGone(why));
    };
    thread.on('error', (err) => fail(err.message));
    thread.on('exit', (code) => fail(`exit ${code}`));
    return thread;
  }

  /** Closes the browser and ends the thread; renders under way fail. */
  async close(): Promise<void> {
    const thread = this.thread;
    if (!thread) return;
    const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    thread.postMessage({ type: 'close' } satisfies ThreadRequest);
    const timer = setTimeout(() => void thread.terminate(), CLOSE_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }
}
