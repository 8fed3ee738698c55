import { stat } from 'node:fs/promises';
import { AppError } from '../../lib/app-error.js';
import type { MediaOutput } from './media-formats.js';
import { outputTooLarge } from './output-size.js';
import { PIXELS_REFUSED, type MediaProbe } from './probe.js';
import { runFfmpeg, type FfmpegOptions } from './run-ffmpeg.js';
import { planArgs, type AvPlan } from './av-plan.js';

export interface Transcode extends Omit<FfmpegOptions, 'durationSeconds'> {
  ffmpegPath: string;
  input: string;
  probe: MediaProbe;
  output: string;
  target: MediaOutput;
  plan: AvPlan;
  /** Replaces the plan's picture encoder arguments (a pass of a two-pass encode). */
  videoCodec?: string[];
  limits: { maxOutputBytes: number; maxPixels: number };
}

/**
 * ffmpeg's memory, bounded where it is cheap. Threads: jobs already run on half the cores
 * (WORKERS), and every frame thread holds its own frames, so auto (one per core, and more for
 * x264) grows with the machine, not the work. One allocation: a 4096×2304 frame at 16 bits
 * RGBA is 75 MB, so 256 MiB refuses only what no accepted file needs.
 */
const THREADS = ['-threads', '2'];
const MAX_ALLOC = ['-max_alloc', String(256 * 1024 * 1024)];

/**
 * ffmpeg reads only local files, with the demuxer the probe chose; -max_pixels holds the decoder
 * to the probe's limit even when frames grow after the first ones the probe read (a small H.264
 * stream followed by an 8192×8192 one).
 */
function inputArgs(job: Transcode): string[] {
  return [
    ...MAX_ALLOC,
    ...['-protocol_whitelist', 'file', '-max_pixels', String(job.limits.maxPixels), ...THREADS],
    ...job.plan.seek,
    ...['-f', job.probe.demuxer, '-i', job.input],
  ];
}

/** ffmpeg would skip frames -max_pixels refuses and go on, so its message stops the job. */
function failOnLargeFrames(job: Transcode): FfmpegOptions['failOn'] {
  // Only a picture target: probing a sound file's cover image logs the same words, harmlessly.
  if (job.target.kind !== 'video') return undefined;
  return {
    pattern: PIXELS_REFUSED,
    error: () =>
      new AppError(
        422,
        'media_too_large',
        `This video has frames over ${job.limits.maxPixels} pixels`,
      ),
  };
}

/** Converts one file as its plan says (audio-plan.ts, video-plan.ts). */
export async function transcode(job: Transcode): Promise<void> {
  const { plan, target } = job;
  const { maxOutputBytes } = job.limits;
  if (target.kind === 'audio' && !job.probe.hasAudio)
    throw new AppError(415, 'unsupported_media_type', 'This file has no sound track');
  // -fs stops writing once the file reaches the limit and still exits 0: a result at the limit
  // is a cut-off one, never delivered.
  const output = [...THREADS, '-fs', String(maxOutputBytes), '-f', target.muxer, job.output];
  await runFfmpeg(
    job.ffmpegPath,
    [...inputArgs(job), ...planArgs(plan, job.videoCodec), ...output],
    {
      ...job,
      durationSeconds: plan.durationSeconds,
      failOn: failOnLargeFrames(job),
    },
  );
  if ((await stat(job.output)).size >= maxOutputBytes) throw outputTooLarge();
}

/** The first pass of a two-pass encode: pictures only, the encoder's statistics kept, no file. */
export function firstPass(job: Transcode, videoCodec: string[]): Promise<void> {
  const { plan } = job;
  return runFfmpeg(
    job.ffmpegPath,
    [
      ...inputArgs(job),
      ...['-map', '0:v:0', ...plan.filters, ...videoCodec, '-an'],
      ...lengthOnly(plan.tail),
      ...[...THREADS, '-f', 'null', '-'],
    ],
    { ...job, durationSeconds: plan.durationSeconds, failOn: failOnLargeFrames(job) },
  );
}

/** The -t of a trim, without the tags and muxer flags the null muxer has no use for. */
function lengthOnly(tail: string[]): string[] {
  const at = tail.indexOf('-t');
  return at >= 0 ? tail.slice(at, at + 2) : [];
}
