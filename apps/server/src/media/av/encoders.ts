import { execFile } from 'node:child_process';
import { PROBE_TRIES_MS } from '../probe-tries.js';

const cache = new Map<string, Promise<ReadonlySet<string>>>();

/** One `ffmpeg -encoders`: the names it lists, or undefined when it failed or timed out. */
function listEncoders(ffmpegPath: string, timeout: number) {
  return new Promise<Set<string> | undefined>((resolve) => {
    execFile(ffmpegPath, ['-hide_banner', '-encoders'], { timeout }, (err, stdout) => {
      if (err) return resolve(undefined);
      // Lines look like " A....D libmp3lame   libmp3lame MP3 (MPEG audio layer 3)".
      const names = stdout.matchAll(/^ [VAS][.A-Z]{5} (\S+)/gm);
      resolve(new Set([...names].map((m) => m[1]!)));
    });
  });
}

/**
 * The encoders this ffmpeg build has, kept once read; empty when ffmpeg is missing or did not
 * answer, and then asked again next time: a slow start under load must not hide them for good.
 */
export function ffmpegEncoders(
  ffmpegPath: string,
  tries = PROBE_TRIES_MS,
): Promise<ReadonlySet<string>> {
  let found = cache.get(ffmpegPath);
  if (!found) {
    found = (async () => {
      for (const timeout of tries) {
        const names = await listEncoders(ffmpegPath, timeout);
        if (names) return names;
      }
      cache.delete(ffmpegPath);
      return new Set<string>();
    })();
    cache.set(ffmpegPath, found);
  }
  return found;
}
