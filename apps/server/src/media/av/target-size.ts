import { AppError } from '../../lib/app-error.js';

/** Below this a picture is mush at any size people send (360p at 50 kbps is already blocks). */
export const MIN_VIDEO_KBPS = 50;
export const MIN_AUDIO_KBPS = 32;
/** Room left for the container's own bytes and the encoder's overshoot. */
const HEADROOM = 0.96;

/** How the sound track counts against the target. */
export type SoundBudget =
  { kind: 'none' } | { kind: 'copy'; kbps: number } | { kind: 'encode'; sourceKbps?: number };

/**
 * Bitrates that fit `bytes` over `seconds`: the sound first (a share of the total, between 32 and
 * 128 kbps and never over its source), the rest to the picture. 422 target_unreachable before any
 * work when the picture would get less than MIN_VIDEO_KBPS.
 */
export function targetRates(
  bytes: number,
  seconds: number,
  sound: SoundBudget,
): { videoKbps: number; audioKbps?: number } {
  const totalKbps = (bytes * 8 * HEADROOM) / 1000 / seconds;
  let audioKbps: number | undefined;
  if (sound.kind === 'copy') audioKbps = sound.kbps;
  if (sound.kind === 'encode') {
    const ceiling = Math.min(128, sound.sourceKbps ?? 128);
    audioKbps = Math.round(
      Math.max(Math.min(MIN_AUDIO_KBPS, ceiling), Math.min(ceiling, totalKbps * 0.15)),
    );
  }
  const videoKbps = Math.floor(totalKbps - (audioKbps ?? 0));
  if (videoKbps < MIN_VIDEO_KBPS) {
    const floorKbps = MIN_VIDEO_KBPS + (sound.kind === 'none' ? 0 : (audioKbps ?? 0));
    const smallest = (floorKbps * 1000 * seconds) / 8 / HEADROOM / 1e6;
    throw new AppError(
      422,
      'target_unreachable',
      `This ${Math.round(seconds)} s video cannot fit in ${bytes / 1e6} MB: the smallest sensible result is about ${smallest.toFixed(1)} MB. Choose a larger size, a shorter part, or remove the sound.`,
    );
  }
  return { videoKbps, audioKbps };
}
