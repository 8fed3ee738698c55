import { rm, stat } from 'node:fs/promises';
import { AppError } from '../../lib/app-error.js';
import type { AvPlan } from './av-plan.js';
import { TARGET_TOLERANCE } from './target-size.js';
import { firstPass, transcode, type Transcode } from './transcode.js';

/** The encoder's two-pass switches; x265 takes them inside its own parameters. */
function passArgs(kind: 'pass' | 'x265', pass: 1 | 2, log: string): string[] {
  return kind === 'x265'
    ? ['-x265-params', `pass=${pass}:stats=${log}.log:log-level=error`]
    : ['-pass', String(pass), '-passlogfile', log];
}

/**
 * A target size: the first pass measures the pictures, the second spends the bitrate where they
 * need it. Encoders land within a few per cent; a result still more than 3 % over is encoded once
 * more at a bitrate scaled by how far it missed, and refused (422 target_unreachable, not
 * charged) if it misses again.
 */
export async function encodeToSize(
  job: Transcode,
  target: NonNullable<AvPlan['target']>,
  passLog: string,
): Promise<void> {
  const { plan } = job;
  const report = (from: number, share: number) => (fraction: number) =>
    job.onProgress?.(from + fraction * share);
  const rated = (kbps: number) =>
    plan.videoCodec.map((arg, i) =>
      plan.videoCodec[i - 1] === '-b:v' ? `${Math.max(1, Math.round(kbps))}k` : arg,
    );
  try {
    let kbps = target.videoKbps;
    if (target.twoPass) {
      const first = [...rated(kbps), ...passArgs(target.twoPass, 1, passLog)];
      await firstPass({ ...job, onProgress: report(0, 0.4) }, first);
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const pass = target.twoPass ? passArgs(target.twoPass, 2, passLog) : [];
      const share = target.twoPass ? 0.6 : 1;
      await transcode({
        ...job,
        videoCodec: [...rated(kbps), ...pass],
        onProgress: report(1 - share, share),
      });
      const bytes = (await stat(job.output)).size;
      if (bytes <= target.bytes * TARGET_TOLERANCE) return;
      kbps = (kbps * target.bytes * 0.97) / bytes;
    }
    throw new AppError(
      422,
      'target_unreachable',
      'This video did not fit the size asked even at a lower bitrate: choose a larger size or a shorter part.',
    );
  } finally {
    await removePassLogs(passLog);
  }
}

async function removePassLogs(passLog: string) {
  const names = ['-0.log', '-0.log.mbtree', '.log', '.log.cutree', '-0.log.temp', '.log.temp'];
  await Promise.all(names.map((suffix) => rm(`${passLog}${suffix}`, { force: true })));
}
