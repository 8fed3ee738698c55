/**
 * Wake-ups for runners, one per job: in this process, or on Redis for any worker to take. The
 * runner then picks which job to run from the database, fairly between users (decision 005).
 */
export interface JobQueue {
  kind: 'local' | 'bullmq';
  /**
   * Rejects (DeadlineExceeded included) when the wake-up could not be handed over in time.
   * `again`: the job ran before, and its earlier entry may still be in Redis (the wake-up of a
   * worker that died or is stopping), which would swallow an entry with the same id.
   * `delayMs`: taken no sooner (a wake-up handed back by a process whose lane was full).
   */
  add(jobId: string, options?: { again?: boolean; delayMs?: number }): Promise<void>;
  /** Resolves when the queue answers within its deadline (readiness). */
  ping(): Promise<void>;
  /** Stops taking jobs and waits up to `graceMs` for running ones; false if some still run. */
  drain(graceMs: number): Promise<boolean>;
  /** Lets go of its connections (after `drain`). */
  close(): Promise<void>;
}

/** The embedded queue: ids wait in memory and `concurrency` of them run at once. */
export function localQueue(concurrency: number, run: () => Promise<unknown>): JobQueue {
  const waiting: string[] = [];
  let running = 0;
  let closed = false;

  function next() {
    while (!closed && running < concurrency && waiting.length > 0) {
      waiting.shift();
      running++;
      // The runner records its own failures; nothing escapes to here.
      void run().finally(() => {
        running--;
        next();
      });
    }
  }

  return {
    kind: 'local',
    async add(jobId) {
      waiting.push(jobId);
      next();
    },
    async ping() {},
    async drain(graceMs) {
      closed = true;
      waiting.length = 0;
      const until = Date.now() + graceMs;
      while (running > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      return running === 0;
    },
    async close() {},
  };
}
