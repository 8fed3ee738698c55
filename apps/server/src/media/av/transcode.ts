import { stat } from 'node:fs/promises';
import { AppError } from '../../lib/app-error.js';
import type { MediaOutput } from './media-formats.js';
import { outputTooLarge } from './output-size.js';
import { PIXELS_REFUSED, type MediaProbe } from './probe.js';
import { runFfmpeg, type FfmpegOptions } from './run-ffmpeg.js';

export interface Transcode extends Omit<FfmpegOptions, 'durationSeconds'> {
  ffmpegPath: string;
  input: string;
  probe: MediaProbe;
  output: string;
  target: MediaOutput;
  /** Replaces the target's own encoder settings (compress picks its bitrate or quality). */
  codecArgs?: string[];
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
 * Converts one file. ffmpeg reads only local files, with the demuxer the probe chose; an
 * audio target takes the first sound track (a video's sound track too), a video target the
 * first picture track and, when there is one, the first sound track.
 */
export async function transcode(job: Transcode): Promise<void> {
  const { probe, target } = job;
  const { maxOutputBytes, maxPixels } = job.limits;
  // -max_pixels holds the decoder to the probe's limit even when frames grow after the first
  // ones the probe read (a small H.264 stream followed by an 8192×8192 one); ffmpeg would skip
  // the refused frames and go on, so its message stops the job.
  const input = [
    ...MAX_ALLOC,
    ...['-protocol_whitelist', 'file', '-max_pixels', String(maxPixels), ...THREADS],
    ...['-f', probe.demuxer, '-i', job.input],
  ];
  let streams: string[];
  if (target.kind === 'audio') {
    if (!probe.hasAudio)
      throw new AppError(415, 'unsupported_media_type', 'This file has no sound track');
    streams = ['-map', '0:a:0', '-vn'];
  } else {
    if (!probe.hasVideo)
      throw new AppError(415, 'unsupported_media_type', 'This file has no video track');
    // 4:2:0 video needs even dimensions.
    streams = ['-map', '0:v:0', '-map', '0:a:0?', '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2'];
  }
  const codecArgs = job.codecArgs ?? target.codecArgs;
  // -fs stops writing once the file reaches the limit and still exits 0: a result at the limit
  // is a cut-off one, never delivered.
  const output = [...THREADS, '-fs', String(maxOutputBytes), '-f', target.muxer, job.output];
  await runFfmpeg(job.ffmpegPath, [...input, ...streams, ...codecArgs, ...output], {
    ...job,
    durationSeconds: probe.durationSeconds,
    // Only a picture target: probing a sound file's cover image logs the same words, harmlessly.
    failOn:
      target.kind === 'video'
        ? {
            pattern: PIXELS_REFUSED,
            error: () =>
              new AppError(
                422,
                'media_too_large',
                `This video has frames over ${maxPixels} pixels`,
              ),
          }
        : undefined,
  });
  if ((await stat(job.output)).size >= maxOutputBytes) throw outputTooLarge();
}
