import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { residentBytes, statFields } from '../media/html/renderer-memory-watchdog.js';

export function hasChromium(): boolean {
  try {
    execFileSync('chromium', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Proc {
  pid: number;
  comm: string;
  ppid: number;
  pgid: number;
}

/** The command name of a process (empty once it is gone). */
function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

function allProcesses(): Proc[] {
  const all: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!pid) continue;
    const fields = statFields(pid);
    if (!fields || fields[0] === 'Z') continue; // gone, or exited and waiting to be reaped
    all.push({ pid, comm: commOf(pid), ppid: Number(fields[1]), pgid: Number(fields[2]) });
  }
  return all;
}

/** Every browser process tree this test process has started, by the browser's pid. */
const seenGroups = new Set<number>();

/**
 * The Chromium this test process runs: its browsers (Chromium children of this process, each
 * leading its own process group) and the processes left over in the groups of browsers seen
 * earlier that are gone (a leaked renderer or zygote would show there), and how many processes
 * the running browsers have.
 */
export function ourChromium(): { browsers: number[]; strays: number; processes: number } {
  const all = allProcesses().filter((p) => p.comm.startsWith('chromium'));
  const browsers = all.filter((p) => p.ppid === process.pid && p.pgid === p.pid).map((p) => p.pid);
  for (const pid of browsers) seenGroups.add(pid);
  const strays = all.filter((p) => seenGroups.has(p.pgid) && !browsers.includes(p.pgid)).length;
  const processes = all.filter((p) => browsers.includes(p.pgid)).length;
  return { browsers, strays, processes };
}

/**
 * `ourChromium()` once `settled` holds for it, or as it stands after `withinMs` (a browser
 * being closed takes a moment to end its processes).
 */
export async function chromiumOnce(
  settled: (state: ReturnType<typeof ourChromium>) => boolean,
  withinMs = 5_000,
): Promise<ReturnType<typeof ourChromium>> {
  const until = Date.now() + withinMs;
  let state = ourChromium();
  while (!settled(state) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    state = ourChromium();
  }
  return state;
}

/** Resident memory (kB) of the processes of the browsers this test process runs. */
export function ourChromiumRssKb(): number {
  const { browsers } = ourChromium();
  const ours = allProcesses().filter((p) => browsers.includes(p.pgid));
  return ours.reduce((sum, { pid }) => sum + residentBytes(pid) / 1024, 0);
}
