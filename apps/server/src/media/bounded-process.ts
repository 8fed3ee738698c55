import { execFile } from 'node:child_process';

export interface ProcessOutput {
  stdout: string;
  stderr: string;
  /** It exited with an error, was killed, or could not start. */
  failed: boolean;
}

export interface ProcessBounds {
  /** Ends the program (SIGKILL) when it aborts: the client left, or the slot's limit passed. */
  signal?: AbortSignal;
  /** Address space the program may map, through prlimit (util-linux); unbounded when unset. */
  memoryBytes?: number;
  /** Ends the program (SIGKILL) past this; no limit when unset. */
  timeoutMs?: number;
  /** Output kept of each stream, in bytes; past it the program is ended. */
  maxBuffer?: number;
}

/**
 * Runs an engine's program with an argument array (never a shell), bounded in memory and time
 * and ended by a signal; its output is kept either way, for the caller to read its words.
 */
export function runBounded(
  command: string,
  args: string[],
  { signal, memoryBytes, timeoutMs = 0, maxBuffer = 1024 * 1024 }: ProcessBounds = {},
): Promise<ProcessOutput> {
  const [file, argv] = memoryBytes
    ? ['prlimit', [`--as=${memoryBytes}`, '--', command, ...args]]
    : [command, args];
  return new Promise((resolve) => {
    execFile(
      file,
      argv,
      { timeout: timeoutMs, maxBuffer, signal, killSignal: 'SIGKILL', windowsHide: true },
      (err, stdout, stderr) => resolve({ stdout, stderr, failed: Boolean(err) }),
    );
  });
}
