/**
 * Wake-ups for runners, one per job: in this process, or on Redis for any worker to take. The
 * runner then picks which job to run from the database, fairly between users (decision 005).
 */
export interface JobQueue {
  kind: 'local' | 'bullmq';
  add(jobId: string): Promise<void>;
  /** Stops taking jobs; running ones are interrupted by the runner's own close. */
  close(): Promise<void>;
}

/** The embedded queue: ids wait in memory and `concurrency` of them run at once. */
export function localQueue(concurrency: number, run: () => Promise<void>): JobQueue {
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
    async close() {
      closed = true;
      waiting.length = 0;
    },
  };
}
