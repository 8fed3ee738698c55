import { spawn } from 'node:child_process';
import { AppError } from '../../lib/app-error.js';

/**
 * Runs ffmpeg with an argument array (never a shell), stops it after `timeoutMs`, and turns a
 * failure into an error with the last lines of its log for our own logs.
 */
export function runFfmpeg(ffmpegPath: string, args: string[], timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpegPath,
      ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new AppError(504, 'processing_timeout', 'Processing took too long and was stopped'));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
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
