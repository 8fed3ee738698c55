import { rm, stat } from 'node:fs/promises';
import { AppError } from '../../lib/app-error.js';
import type { AvPlan } from './av-plan.js';
import { firstPass, transcode, type Transcode } from './transcode.js';

/** The encoder's two-pass switches; x265 takes them inside its own parameters. */
function passArgs(kind: 'pass' | 'x265', pass: 1 | 2, log: string): string[] {
  return kind === 'x265'
    ? ['-x265-params', `pass=${pass}:stats=${log}.log:log-level=error`]
    : ['-pass', String(pass), '-passlogfile', log];
}

/** Encodes at most: the first, then each at a bitrate corrected by how far the last missed. */
const MAX_ENCODES = 4;
/** Each correction aims this much under the target. */
const AIM = 0.97;
/** The arguments whose value is the picture's bitrate. */
const RATE_ARGS = new Set(['-b:v', '-minrate', '-maxrate']);

interface Tried {
  kbps: number;
  bytes: number;
}

/**
 * The next bitrate to try. Size grows with bitrate more slowly than in step once an encoder nears
 * its coarsest quantiser (noise, realtime VP9): from two tries the curve's slope in log space is
 * measured (a secant) and followed, between in step and a third of it.
 */
export function nextKbps(tries: Tried[], targetBytes: number): number {
  const last = tries[tries.length - 1]!;
  const before = tries[tries.length - 2];
  let slope = 1;
  if (before && before.kbps !== last.kbps && before.bytes !== last.bytes)
    slope = Math.log(last.bytes / before.bytes) / Math.log(last.kbps / before.kbps);
  slope = Math.min(1, Math.max(1 / 3, Number.isFinite(slope) ? slope : 1));
  return last.kbps * ((targetBytes * AIM) / last.bytes) ** (1 / slope);
}

/** MPEG-4 part 2's rate control gives up (and ffmpeg aborts) below what its quantiser allows. */
const BITRATE_TOO_LOW = /bitrate too low for this video/;

/**
 * A target size, as an upper bound: the result is never larger. With two passes the first
 * measures the pictures and the second spends the bitrate where they need it; encoders land
 * within a few per cent, either side. A result over the target is encoded again at a bitrate
 * scaled by how far it missed (reusing the first pass), and past MAX_ENCODES the target is
 * refused (422 target_unreachable, not charged).
 */
export async function encodeToSize(
  job: Transcode,
  target: NonNullable<AvPlan['target']>,
  passLog: string,
): Promise<void> {
  const { plan } = job;
  const report = (from: number, share: number) => (fraction: number) =>
    job.onProgress?.(from + fraction * share);
  // Both passes time frames as the muxer will (media-formats.ts, frameTiming).
  const timing = ['-fps_mode', target.frameTiming];
  const rated = (kbps: number) => [
    ...plan.videoCodec.map((arg, i) =>
      RATE_ARGS.has(plan.videoCodec[i - 1]!) ? `${Math.max(1, Math.round(kbps))}k` : arg,
    ),
    ...timing,
  ];
  try {
    let kbps = target.videoKbps;
    if (target.twoPass) {
      const first = [...rated(kbps), ...passArgs(target.twoPass, 1, passLog)];
      await firstPass({ ...job, onProgress: report(0, 0.4) }, first);
    }
    const tries: Tried[] = [];
    for (let encode = 0; encode < MAX_ENCODES; encode++) {
      const pass = target.twoPass ? passArgs(target.twoPass, 2, passLog) : [];
      const share = target.twoPass ? 0.6 : 1;
      await transcode({
        ...job,
        videoCodec: [...rated(kbps), ...pass],
        onProgress: report(1 - share, share),
      }).catch((err: unknown) => {
        throw err instanceof AppError && BITRATE_TOO_LOW.test(err.message) ? unreachable() : err;
      });
      const bytes = (await stat(job.output)).size;
      if (bytes <= target.bytes) return;
      tries.push({ kbps, bytes });
      kbps = nextKbps(tries, target.bytes);
    }
    throw unreachable();
  } finally {
    await removePassLogs(passLog);
  }
}

const unreachable = () =>
  new AppError(
    422,
    'target_unreachable',
    'This video did not fit the size asked even at a lower bitrate: choose a larger size or a shorter part.',
  );

async function removePassLogs(passLog: string) {
  const names = ['-0.log', '-0.log.mbtree', '.log', '.log.cutree', '-0.log.temp', '.log.temp'];
  await Promise.all(names.map((suffix) => rm(`${passLog}${suffix}`, { force: true })));
}
