import type { ErrorCode } from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';

/**
 * One render's turn. `done` when its image is ready: it no longer counts against its user.
 * `free` when its slot is ready for the next render (the page reset after the answer); it
 * implies `done`. Each may be called more than once.
 */
export interface Turn {
  done(): void;
  free(): void;
}

interface Waiting {
  userId: string;
  start: (turn: Turn) => void;
}

export interface RenderTurnsOptions {
  /** Renders at once, everyone's. */
  slots: number;
  /** One user's renders in flight (running and waiting); past it 429 too_many_renders. */
  perUser: number;
  /** Seconds a refused caller is told to wait: about one render's time limit. */
  retryAfterSeconds: number;
  /** Called as each render starts (tests count the order). */
  onStart?: (userId: string) => void;
  /** The 429 past `perUser`: HTML's too_many_renders unless given (the upscale model's own). */
  refusal?: { code: ErrorCode; message: string };
}

export interface TakeOptions {
  /** Aborting it while the caller waits takes them out of the queue (rejecting with its reason). */
  signal?: AbortSignal;
  /** Past the cap, wait for a fair turn instead of being refused: a job has nobody to tell 429. */
  wait?: boolean;
}

/**
 * Turns at the renderer's slots, fair between users. First come, first served let one user's
 * dozen endless scripts hold everyone else for a minute; now a free slot goes to the waiting
 * render of the user with the fewest renders running, ties to the user served least recently
 * (as the job runner picks jobs), and one user may have only `perUser` renders in flight.
 * The upscale model takes its turns through the same class (media/upscale/super-resolution.ts).
 */
export class RenderTurns {
  private readonly waiting: Waiting[] = [];
  private readonly running = new Map<string, number>();
  /** When each user last started a render (a counter); forgotten once they have none in flight. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private active = 0;

  constructor(private readonly options: RenderTurnsOptions) {}

  /** Waits for a turn; refuses a user already at their cap (unless told to wait). */
  take(userId: string, { signal, wait = false }: TakeOptions = {}): Promise<Turn> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!wait && this.inFlight(userId) >= this.options.perUser) {
      const { code, message } = this.options.refusal ?? {
        code: 'too_many_renders',
        message: `You have ${this.options.perUser} renders under way; wait for one to finish`,
      };
      const retryAfter = String(this.options.retryAfterSeconds);
      return Promise.reject(new AppError(429, code, message, { 'retry-after': retryAfter }));
    }
    return new Promise((start, fail) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(entry);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        if (this.inFlight(userId) === 0) this.lastServed.delete(userId);
        fail(signal!.reason);
      };
      const entry: Waiting = {
        userId,
        start: (turn) => {
          signal?.removeEventListener('abort', onAbort);
          start(turn);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      this.startWhatFits();
    });
  }

  private inFlight(userId: string): number {
    const waiting = this.waiting.filter((w) => w.userId === userId).length;
    return (this.running.get(userId) ?? 0) + waiting;
  }

  private startWhatFits() {
    while (this.active < this.options.slots && this.waiting.length > 0) {
      const { userId, start } = this.waiting.splice(this.fairestIndex(), 1)[0]!;
      this.active += 1;
      this.running.set(userId, (this.running.get(userId) ?? 0) + 1);
      this.lastServed.set(userId, ++this.served);
      this.options.onStart?.(userId);
      start(this.turnOf(userId));
    }
  }

  private turnOf(userId: string): Turn {
    let done = false;
    let free = false;
    const turn: Turn = {
      done: () => {
        if (done) return;
        done = true;
        this.userDone(userId);
      },
      free: () => {
        turn.done();
        if (free) return;
        free = true;
        this.active -= 1;
        this.startWhatFits();
      },
    };
    return turn;
  }

  /** The oldest waiting render of the user with the fewest running, then served least recently. */
  private fairestIndex(): number {
    let best = 0;
    for (let i = 1; i < this.waiting.length; i += 1) {
      if (this.comesBefore(this.waiting[i]!.userId, this.waiting[best]!.userId)) best = i;
    }
    return best;
  }

  private comesBefore(a: string, b: string): boolean {
    const running = (this.running.get(a) ?? 0) - (this.running.get(b) ?? 0);
    if (running !== 0) return running < 0;
    return (this.lastServed.get(a) ?? 0) < (this.lastServed.get(b) ?? 0);
  }

  private userDone(userId: string) {
    const left = (this.running.get(userId) ?? 1) - 1;
    if (left > 0) this.running.set(userId, left);
    else this.running.delete(userId);
    if (this.inFlight(userId) === 0) this.lastServed.delete(userId);
  }
}
