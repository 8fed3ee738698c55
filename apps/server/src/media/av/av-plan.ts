import type { Applied } from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';
import type { MediaProbe } from './probe.js';

/**
 * One job's ffmpeg work, decided before it is queued (media-tool.ts keeps it beside the input):
 * the pieces in the order ffmpeg reads them, so a two-pass encode can reuse them.
 */
export interface AvPlan {
  /** Input options: the trim's start (-ss before -i seeks, then decodes exactly from there). */
  seek: string[];
  /** Which tracks, and -vn / -an. */
  maps: string[];
  /** -vf / -af chains. */
  filters: string[];
  videoCodec: string[];
  audioCodec: string[];
  /** -t, tags, the muxer's own flags. */
  tail: string[];
  /** The result's length: for progress and the output estimate. */
  durationSeconds: number;
  /**
   * A target size: two passes at this bitrate (one where the encoder has no two-pass), frames
   * timed as the muxer times them.
   */
  target?: {
    bytes: number;
    videoKbps: number;
    twoPass?: 'pass' | 'x265';
    frameTiming: 'cfr' | 'vfr';
  };
  /** What the options did to this file, shown in the job's state. */
  applied: Applied;
}

export interface Trim {
  start: number;
  durationSeconds: number;
  trimmed: boolean;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The part kept: the whole file, or start to end within it. Trims are to the millisecond, so
 * start and end are compared once rounded to it: a start of 9.9999999 s on a 10 s file, or an
 * end of 0.0001 s, keeps nothing and would still run (and be charged) as an empty result. Past
 * the end, or nothing kept, is 422 trim_out_of_range.
 */
export function resolveTrim(fields: { start?: number; end?: number }, probe: MediaProbe): Trim {
  const length = probe.durationSeconds;
  const start = round3(fields.start ?? 0);
  if (start >= round3(length) || (fields.end !== undefined && fields.end > length + 0.05))
    throw new AppError(
      422,
      'trim_out_of_range',
      `This file runs ${round3(length)} s: start and end must fall within it`,
    );
  const end = Math.min(fields.end === undefined ? length : round3(fields.end), length);
  if (round3(end) <= start)
    throw new AppError(
      422,
      'trim_out_of_range',
      `This trim keeps nothing: to the millisecond, its end (${round3(end)} s) is not after its start (${start} s)`,
    );
  return {
    start,
    durationSeconds: end - start,
    trimmed: fields.start !== undefined || fields.end !== undefined,
  };
}

/** -ss before the input, -t after it (the length, counted from the new start). */
export function trimArgs(trim: Trim): { seek: string[]; tail: string[]; applied: Applied } {
  if (!trim.trimmed) return { seek: [], tail: [], applied: {} };
  return {
    seek: trim.start > 0 ? ['-ss', String(round3(trim.start))] : [],
    tail: ['-t', String(round3(trim.durationSeconds))],
    applied: {
      trimStart: round3(trim.start),
      trimEnd: round3(trim.start + trim.durationSeconds),
      durationSeconds: round3(trim.durationSeconds),
    },
  };
}

/** The whole ffmpeg argument list between the input and the output (one pass). */
export const planArgs = (plan: AvPlan, videoCodec = plan.videoCodec) => [
  ...plan.maps,
  ...plan.filters,
  ...videoCodec,
  ...plan.audioCodec,
  ...plan.tail,
];
