import { rename, rm, stat } from 'node:fs/promises';
import { runBounded } from '../bounded-process.js';

/**
 * Lossy GIF through Debian's gifsicle (package gifsicle), when it is installed. libvips
 * re-encodes a GIF's frames but cannot shrink one already optimised (a real 83 KB animation came
 * back 94 KB at every quality); gifsicle's lossy LZW lets each frame's pixels drift a little so
 * runs compress, as ezgif and other GIF tools do, and keeps the animation.
 */
const PROGRAM = 'gifsicle';
/** Address space gifsicle may map: frames are held as palette indexes, a byte a pixel. */
const MEMORY = 2 * 1024 ** 3;

let found: Promise<boolean> | undefined;

/** Whether gifsicle answers; a failed look is not kept, so a slow start is asked again. */
export function hasGifsicle(): Promise<boolean> {
  found ??= runBounded(PROGRAM, ['--version'], { timeoutMs: 30_000 }).then((probe) => {
    if (probe.failed) found = undefined;
    return !probe.failed;
  });
  return found;
}

/** gifsicle's lossiness for a 1–100 quality: 80 → 40 (light), 40 → 120, 10 → 180 (heavy). */
export const gifLossiness = (quality: number) => Math.round((100 - quality) * 2);

/**
 * Rewrites the GIF at `path` with gifsicle's lossy encoder and its heaviest optimisation, at
 * `quality` and at most `colours`; the smaller of the two files is kept at `path`. Runs in the
 * caller's image slot, ended by `signal`.
 */
export async function shrinkGif(
  path: string,
  quality: number,
  colours: number,
  signal: AbortSignal,
): Promise<void> {
  const lossy = `${path}.lossy.gif`;
  try {
    const args = ['-O3', `--lossy=${gifLossiness(quality)}`];
    if (colours < 256) args.push('--colors', String(colours));
    const run = await runBounded(PROGRAM, [...args, path, '-o', lossy], {
      signal,
      memoryBytes: MEMORY,
    });
    signal.throwIfAborted();
    // gifsicle refuses some GIFs libvips wrote fine: libvips' own result stands then.
    if (run.failed) return;
    if ((await stat(lossy)).size < (await stat(path)).size) await rename(lossy, path);
  } finally {
    await rm(lossy, { force: true });
  }
}
