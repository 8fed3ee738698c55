import { execFile } from 'node:child_process';

const cache = new Map<string, Promise<ReadonlySet<string>>>();

/** The encoders this ffmpeg build has, read once per path; empty when ffmpeg is missing. */
export function ffmpegEncoders(ffmpegPath: string): Promise<ReadonlySet<string>> {
  let found = cache.get(ffmpegPath);
  if (!found) {
    found = new Promise((resolve) => {
      execFile(ffmpegPath, ['-hide_banner', '-encoders'], { timeout: 10_000 }, (err, stdout) => {
        if (err) return resolve(new Set());
        // Lines look like " A....D libmp3lame   libmp3lame MP3 (MPEG audio layer 3)".
        const names = stdout.matchAll(/^ [VAS][.A-Z]{5} (\S+)/gm);
        resolve(new Set([...names].map((m) => m[1]!)));
      });
    });
    cache.set(ffmpegPath, found);
  }
  return found;
}
