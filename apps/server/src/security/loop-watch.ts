import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread } from 'node:worker_threads';

/** A full garbage collection now, so none falls inside a watch (a test process's heap is large). */
export function collectGarbage() {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * The main thread's CPU time one request may take: parsing the upload, checking the account and
 * answering take tens of ms; a decoder on the event loop takes hundreds to thousands.
 */
export const MAIN_THREAD_CPU_LIMIT_MS = 150;

/** Linux counts a thread's CPU time in clock ticks of 1/100 s (USER_HZ). */
const TICK_MS = 10;

/**
 * CPU time this process's main thread (the one whose event loop serves requests) has used, in
 * ms: its user and system time from /proc, in ticks of 10 ms. Worker threads, libuv's pool
 * (libvips) and child processes each count on their own, not here.
 */
export function mainThreadCpuMs(): number {
  if (!isMainThread) throw new Error('the watch reads the main thread: run tests in forks');
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  // After "pid (name) ": state is the 3rd field, utime the 14th, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * The CPU time the main thread spent while `work` ran, and what `work` answered. A decoder,
 * encoder or model run on the event loop shows up here as its whole running time; one in a
 * worker thread or a child process does not. Unlike the loop's delay, CPU time does not grow
 * when a busy machine leaves the thread waiting, so the watch holds on a loaded machine too.
 */
export async function mainThreadCpuDuring<T>(work: () => Promise<T>) {
  collectGarbage();
  const before = mainThreadCpuMs();
  const result = await work();
  return { result, cpuMs: mainThreadCpuMs() - before };
}
