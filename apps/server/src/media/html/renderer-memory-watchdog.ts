import { readdirSync, readFileSync } from 'node:fs';

/** How often the renderers' memory is read while a render runs. */
const WATCH_INTERVAL_MS = 100;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces). */
export function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // gone
  }
}

/** Whether a process is of a Chromium type; zygote children rewrite their command line as one string. */
const isType = (pid: number, type: 'zygote' | 'renderer'): boolean => {
  try {
    return new RegExp(`[\\0 ]--type=${type}(?:[\\0 ]|$)`).test(
      readFileSync(`/proc/${pid}/cmdline`, 'utf8'),
    );
  } catch {
    return false;
  }
};

/** Resident memory of one process in bytes (second field of statm, in pages of 4 kB). */
export const residentBytes = (pid: number): number => {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
  } catch {
    return 0;
  }
};

/**
 * The browser process Playwright just started for one launch: a child of this process, the
 * leader of its own process group (Playwright starts it detached), whose environment carries
 * this launch's mark.
 */
export function findBrowserPid(mark: string): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null; // no /proc: only V8's heap limit applies
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!pid) continue;
    const fields = statFields(pid);
    if (!fields || Number(fields[1]) !== process.pid || Number(fields[2]) !== pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(mark)) return pid;
    } catch {
      // gone, or not ours
    }
  }
  return null;
}

/**
 * Caps the resident memory of each renderer process of one browser. V8's own heap limit
 * (`--max-old-space-size`) does not cover typed arrays, canvases, images or the DOM, so a page
 * could still fill gigabytes; a renderer found above the cap is killed, which crashes only the
 * page it hosts (each context has its own renderer process). Chromium's renderers are
 * children of its zygotes, which live in the browser's process group; /proc is read only while
 * a render runs.
 */
export class RendererMemoryWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private watchers = 0;
  private zygotes: number[] = [];
  /**
   * Children known to be renderers. Only a yes is remembered: a child just forked still
   * carries the zygote's command line until it renames itself, and a no remembered then would
   * leave that renderer unwatched for good (a busy machine widens that window).
   */
  private readonly renderers = new Set<number>();

  constructor(
    private readonly browserPid: number,
    private readonly capBytes: number,
  ) {}

  /** Watches until the returned function is called (watches nest: one per render). */
  watch(): () => void {
    this.watchers += 1;
    this.timer ??= setInterval(() => this.check(), WATCH_INTERVAL_MS).unref();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.watchers -= 1;
      if (this.watchers === 0) this.stop();
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private findZygotes(): number[] {
    return readdirSync('/proc')
      .map(Number)
      .filter((pid) => pid && Number(statFields(pid)?.[2]) === this.browserPid)
      .filter((pid) => isType(pid, 'zygote'));
  }

  private check(): void {
    if (this.zygotes.length === 0) this.zygotes = this.findZygotes();
    const seen = new Set<number>();
    for (const zygote of this.zygotes) {
      let children: number[];
      try {
        children = readFileSync(`/proc/${zygote}/task/${zygote}/children`, 'utf8')
          .split(' ')
          .map(Number)
          .filter(Boolean);
      } catch {
        continue;
      }
      for (const pid of children) {
        seen.add(pid);
        if (!this.renderers.has(pid)) {
          if (!isType(pid, 'renderer')) continue;
          this.renderers.add(pid);
        }
        if (residentBytes(pid) > this.capBytes) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
    }
    for (const pid of this.renderers) if (!seen.has(pid)) this.renderers.delete(pid);
  }
}
