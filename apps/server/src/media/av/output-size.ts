import { AppError } from '../../lib/app-error.js';
import type { MediaProbe } from './probe.js';

export const outputTooLarge = () =>
  new AppError(
    422,
    'output_too_large',
    'The result would be too large: choose a compressed format or a shorter file',
  );

/** A lossy encoder we give no bitrate (vorbis at -q:a 5 runs about 160 kbps). */
const UNSTATED_LOSSY_BITS = 192_000;
/** Lossless at 16 bits is never larger than the raw samples (24-bit sources may be, by a third). */
const RAW_ENCODERS = /^(pcm_s16|flac$|alac$)/;

/** The value following `name` in an ffmpeg argument list (the last one wins, as in ffmpeg). */
function argument(args: readonly string[], name: string): string | undefined {
  const at = args.lastIndexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

/** "192k" → 192000. */
const bits = (value: string) => Number.parseFloat(value) * (/k$/i.test(value) ? 1000 : 1);

/** Bytes a second of the sound track takes in the output. */
function audioBytesPerSecond(probe: MediaProbe, codecArgs: readonly string[]): number {
  const encoder = argument(codecArgs, '-c:a') ?? '';
  if (RAW_ENCODERS.test(encoder)) {
    const rate = Number(argument(codecArgs, '-ar') ?? probe.sampleRate ?? 48_000);
    const channels = Number(argument(codecArgs, '-ac') ?? probe.channels ?? 2);
    return rate * channels * 2;
  }
  const bitrate = argument(codecArgs, '-b:a');
  return (bitrate ? bits(bitrate) : UNSTATED_LOSSY_BITS) / 8;
}

/**
 * What the output will take, before any work: exact for WAV, AIFF and raw PCM (rate × channels ×
 * 2 bytes, from the probe or the rate the format fixes), a ceiling for FLAC and ALAC, the bitrate
 * we ask for lossy sound. A video's pictures are not counted: at a constant quality (CRF) no
 * honest ceiling exists short of raw frames, and any typical figure would refuse real screen
 * recordings; the byte limit while writing (transcode.ts) bounds them.
 */
export function estimateOutputBytes(probe: MediaProbe, codecArgs: readonly string[]): number {
  const sound = probe.hasAudio ? audioBytesPerSecond(probe, codecArgs) : 0;
  return Math.ceil(probe.durationSeconds * sound);
}

/** Refuses, before a job is queued or a use held, an output sure to pass the limit. */
export function checkOutputEstimate(
  probe: MediaProbe,
  codecArgs: readonly string[],
  maxOutputBytes: number,
) {
  if (estimateOutputBytes(probe, codecArgs) > maxOutputBytes) throw outputTooLarge();
}
