/** One encode tried: at `quality`, the image scaled by `scale` (1 = the asked size), and its bytes. */
export interface Attempt {
  quality: number;
  scale: number;
  bytes: number;
}

export interface FitOptions {
  /** Encodes at this quality and scale into the result file, answering its size in bytes. */
  encode(quality: number, scale: number): Promise<number>;
  targetBytes: number;
  /** The highest quality tried: the user's own setting. */
  ceiling: number;
  /** Whether quality changes the size at all (a lossless TIFF: no). */
  lossy: boolean;
  /** Whether the dimensions may shrink when no quality fits. */
  allowResize: boolean;
  /** The shorter side at scale 1, so scaling stops before the image vanishes. */
  shortSide: number;
}

export type FitResult =
  | { fits: true; best: Attempt; encodes: number }
  | { fits: false; smallest: Attempt; encodes: number };

/**
 * Below this quality the image is shrunk instead, when the user allows it: a smaller picture at
 * a decent quality looks better than a full-size one in blocks.
 */
const RESIZE_FLOOR_QUALITY = 50;
/** Never scale the shorter side below this many pixels. */
const MIN_SIDE = 16;
/** Scaling tries before giving up (each aims a little under the target). */
const SCALE_TRIES = 8;

/**
 * Searches for the highest quality (and, when allowed, the largest scale) whose encode is at
 * most `targetBytes`. Size grows with quality for every encoder we use, so a binary search over
 * 1–`ceiling` takes about 7 encodes; the result file ends holding the best attempt.
 */
export async function fitToSize(options: FitOptions): Promise<FitResult> {
  const { encode, targetBytes, ceiling, lossy, allowResize, shortSide } = options;
  let encodes = 0;
  let last: Attempt | undefined;
  const attempt = async (quality: number, scale: number): Promise<Attempt> => {
    encodes += 1;
    last = { quality, scale, bytes: await encode(quality, scale) };
    return last;
  };
  let smallest: Attempt | undefined;
  const note = (a: Attempt) => {
    if (!smallest || a.bytes < smallest.bytes) smallest = a;
    return a;
  };

  /** The best fitting quality at `scale` in [low, ceiling], or undefined when `low` is too big. */
  async function searchQuality(scale: number, low: number): Promise<Attempt | undefined> {
    const top = note(await attempt(ceiling, scale));
    if (top.bytes <= targetBytes) return top;
    if (!lossy || low >= ceiling) return undefined;
    const bottom = note(await attempt(low, scale));
    if (bottom.bytes > targetBytes) return undefined;
    let best = bottom;
    let [fit, tooBig] = [low, ceiling];
    while (tooBig - fit > 1) {
      const middle = Math.floor((fit + tooBig) / 2);
      const tried = note(await attempt(middle, scale));
      if (tried.bytes <= targetBytes) [fit, best] = [middle, tried];
      else tooBig = middle;
    }
    return best;
  }

  const floor = allowResize ? Math.min(RESIZE_FLOOR_QUALITY, ceiling) : 1;
  let best = await searchQuality(1, floor);
  if (!best && allowResize) {
    let scale = 1;
    for (let i = 0; i < SCALE_TRIES && !best; i += 1) {
      // Bytes follow the pixel count: aim 5 % under the target.
      const reference = smallest!.bytes;
      scale *= Math.min(0.9, Math.sqrt(targetBytes / reference) * 0.95);
      if (scale * shortSide < MIN_SIDE) break;
      best = await searchQuality(scale, floor);
    }
  }
  if (!best) return { fits: false, smallest: smallest!, encodes };
  // The file holds the last encode; write the best again when the search ended elsewhere.
  if (last !== best) await attempt(best.quality, best.scale);
  return { fits: true, best, encodes };
}
