import { AppError } from '../../lib/app-error.js';
import type { MediaOutput } from './media-formats.js';
import type { MediaProbe } from './probe.js';
import { runFfmpeg, type FfmpegOptions } from './run-ffmpeg.js';

export interface Transcode extends Omit<FfmpegOptions, 'durationSeconds'> {
  ffmpegPath: string;
  input: string;
  probe: MediaProbe;
  output: string;
  target: MediaOutput;
  /** Replaces the target's own encoder settings (compress picks its bitrate or quality). */
  codecArgs?: string[];
}

/**
 * Converts one file. ffmpeg reads only local files, with the demuxer the probe chose; an
 * audio target takes the first sound track (a video's sound track too), a video target the
 * first picture track and, when there is one, the first sound track.
 */
export function transcode(job: Transcode): Promise<void> {
  const { probe, target } = job;
  const input = ['-protocol_whitelist', 'file', '-f', probe.demuxer, '-i', job.input];
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
  return runFfmpeg(
    job.ffmpegPath,
    [...input, ...streams, ...(job.codecArgs ?? target.codecArgs), '-f', target.muxer, job.output],
    { ...job, durationSeconds: probe.durationSeconds },
  );
}
