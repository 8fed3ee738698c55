import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { AppError } from '../../lib/app-error.js';

export interface FfmpegOptions {
  timeoutMs?: number;
  /** The input's duration, to turn ffmpeg's `out_time` into a fraction for `onProgress`. */
  durationSeconds?: number;
  onProgress?(fraction: number): void;
  /** Aborting kills ffmpeg at once (a cancelled job). */
  signal?: AbortSignal;
  /** Stops ffmpeg with `error` as soon as its log matches `pattern` (an error it would skip past). */
  failOn?: { pattern: RegExp; error: () => Error };
}

/** Below normal, so media work never starves the web process of CPU. */
const LOW_PRIORITY = 10;

/**
 * ffmpeg must die with the process that runs it (a worker killed with -9 must not leave an
 * encode running). Node cannot set a child's parent-death signal itself, so on Linux ffmpeg is
 * started through util-linux's `setpriv --pdeathsig KILL`, which sets it and then execs ffmpeg
 * (same pid). Elsewhere ffmpeg's own `-timelimit` is the bound.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find(
  (path) => process.platform === 'linux' && existsSync(path),
);

/**
 * ffmpeg's `-timelimit` counts CPU seconds of all its threads (up to two decoding and two
 * encoding, plus the muxer), so it is set to this many times the wall-clock limit: a backstop
 * for when nothing is left to stop it, not the limit users meet.
 */
const CPU_TIME_FACTOR = 5;

/** The command that runs ffmpeg with these arguments, dying with this process where it can. */
export function ffmpegCommand(ffmpegPath: string, args: string[]): [string, string[]] {
  return SETPRIV
    ? [SETPRIV, ['--pdeathsig', 'KILL', '--', ffmpegPath, ...args]]
    : [ffmpegPath, args];
}

export class FfmpegCancelled extends Error {
  override name = 'FfmpegCancelled';
}

/**
 * Runs ffmpeg with an argument array (never a shell) at low priority, with no stdin. It is
 * stopped after `timeoutMs` or when `signal` aborts. A failure becomes an error carrying the
 * last line of ffmpeg's log, for our own logs.
 */
export function runFfmpeg(ffmpegPath: string, args: string[], options: FfmpegOptions = {}) {
  const { timeoutMs = 120_000, durationSeconds, onProgress, signal, failOn } = options;
  const progressArgs = onProgress ? ['-progress', 'pipe:1', '-nostats'] : [];
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new FfmpegCancelled('Cancelled before start'));
    const timeLimit = String(Math.ceil((timeoutMs / 1000) * CPU_TIME_FACTOR));
    const [command, commandArgs] = ffmpegCommand(ffmpegPath, [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-timelimit', timeLimit],
      ...progressArgs,
      ...args,
    ]);
    // Its own process group, so stopping it stops anything it started too.
    const child = spawn(command, commandArgs, {
      stdio: ['ignore', onProgress ? 'pipe' : 'ignore', 'pipe'],
      detached: true,
    });
    try {
      if (child.pid) setPriority(child.pid, LOW_PRIORITY);
    } catch {
      // Not permitted on some systems; the work still runs.
    }
    let log = '';
    let failure: Error | undefined;
    child.stderr!.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
      if (failOn?.pattern.test(log)) stop(failOn.error());
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const seconds = lastOutTimeSeconds(chunk.toString());
      if (seconds !== undefined && durationSeconds)
        onProgress!(Math.min(1, Math.max(0, seconds / durationSeconds)));
    });
    const stop = (err: Error) => {
      failure ??= err;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL'); // the group is gone already, or never formed
      }
    };
    const timer = setTimeout(
      () =>
        stop(new AppError(504, 'processing_timeout', 'Processing took too long and was stopped')),
      timeoutMs,
    );
    const onAbort = () => stop(new FfmpegCancelled('Cancelled'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err) => {
      settle();
      reject(err);
    });
    child.on('close', (code) => {
      settle();
      if (failure) reject(failure);
      else if (code === 0) resolve();
      else
        reject(
          new AppError(
            422,
            'processing_failed',
            `ffmpeg failed: ${log.trim().split('\n').pop() ?? code}`,
          ),
        );
    });
  });
}

/** `-progress` writes blocks of key=value lines; out_time_us is the position reached. */
function lastOutTimeSeconds(text: string): number | undefined {
  const matches = [...text.matchAll(/^out_time_us=(\d+)$/gm)];
  const last = matches.at(-1)?.[1];
  return last === undefined ? undefined : Number(last) / 1_000_000;
}
