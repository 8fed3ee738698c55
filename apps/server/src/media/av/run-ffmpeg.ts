import { spawn } from 'node:child_process';
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
    const child = spawn(
      ffmpegPath,
      ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...progressArgs, ...args],
      { stdio: ['ignore', onProgress ? 'pipe' : 'ignore', 'pipe'] },
    );
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
      child.kill('SIGKILL');
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
