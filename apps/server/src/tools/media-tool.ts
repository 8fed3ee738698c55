import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type MediaFormat, type Service, type ToolId, type VideoCodec } from '@refract/contracts';
import type { ZodType } from 'zod';
import type { Config } from '../config.js';
import { AppError } from '../lib/app-error.js';
import { resultName } from '../lib/result-name.js';
import { ffmpegEncoders } from '../media/av/encoders.js';
import type { AvPlan } from '../media/av/av-plan.js';
import { encodeToSize } from '../media/av/encode-to-size.js';
import { mediaOutput, VIDEO_ENCODERS } from '../media/av/media-formats.js';
import { checkOutputEstimate, outputTooLarge } from '../media/av/output-size.js';
import { probeMedia, type MediaProbe } from '../media/av/probe.js';
import { transcode } from '../media/av/transcode.js';
import type { ToolDefinition } from './tool-definition.js';

interface MediaToolSpec<Fields> {
  id: ToolId;
  path: string;
  summary: string;
  produces?: readonly string[];
  fileField: 'audio' | 'video';
  fields: ZodType<Fields>;
  service: Service;
  target(fields: Fields): MediaFormat;
  /** The download is named after the upload: `song.ogg`, `song-compressed.mp3` (result-name.ts). */
  name: { suffix?: string; fallback: string };
  /** The work the options ask of this file (audio-plan.ts, video-plan.ts). */
  plan(fields: Fields, probe: MediaProbe, context: PlanContext): Promise<AvPlan> | AvPlan;
  /** Compress: a result never larger than the input. */
  compress?: boolean;
}

export interface PlanContext {
  input: string;
  config: Config;
}

/**
 * How long one job may run: 15 minutes (a 100 MB video at realtime VP9 needs a few on 2 cores),
 * or five times the media's length when that is longer, so a video of gigabytes (4K at a
 * quarter of realtime, say) can finish.
 */
export const jobTimeLimitMs = (durationSeconds: number) =>
  Math.max(15 * 60 * 1000, 5 * durationSeconds * 1000);

/**
 * The probe and the plan made at upload, kept beside the job's input (DATA_DIR/jobs/<id>, which
 * workers share) so the job does not run ffprobe and scan the file a second time: ffprobe alone
 * costs 0.1–0.2 s a job (bench/results/media-convert.md). Only the server writes in a job's
 * directory; without the files (a job queued by an older version) the job probes again.
 */
const keptFile = (input: string, name: 'probe' | 'plan') => join(dirname(input), `${name}.json`);

async function kept<T>(input: string, name: 'probe' | 'plan'): Promise<T | undefined> {
  const text = await readFile(keptFile(input, name), 'utf8').catch(() => undefined);
  return text ? (JSON.parse(text) as T) : undefined;
}

/** An audio or video tool: probed and planned before it is queued, run as a job on ffmpeg. */
export function mediaTool<Fields>(spec: MediaToolSpec<Fields>): ToolDefinition<Fields> {
  return {
    id: spec.id,
    path: spec.path,
    summary: spec.summary,
    produces: spec.produces,
    fileField: spec.fileField,
    fields: spec.fields,
    service: () => spec.service,
    runsAs: 'job',
    async precheck(fields, engines, config) {
      if (!engines.ffmpeg.available)
        throw new AppError(503, 'engine_unavailable', 'ffmpeg is not installed on this server');
      const format = spec.target(fields);
      const encoders = await ffmpegEncoders(config.engines.ffmpeg);
      const codec = (fields as { codec?: VideoCodec }).codec;
      const wanted = [...mediaOutput(format).encoders];
      if (codec && mediaOutput(format).kind === 'video') wanted[0] = VIDEO_ENCODERS[codec].encoder;
      const missing = wanted.filter((name) => !encoders.has(name));
      if (missing.length > 0)
        throw new AppError(
          422,
          'unsupported_output_format',
          `Cannot convert to ${codec ?? format}: this server's ffmpeg has no ${missing.join(' or ')} encoder`,
        );
    },
    async inspect(input, fields, config, upload) {
      const probe = await probeMedia(config.engines.ffprobe, input, config.media, upload);
      const target = mediaOutput(spec.target(fields));
      // Refuse a video target for a file without pictures now, not after it has been queued.
      if (target.kind === 'video' && !probe.hasVideo)
        throw new AppError(415, 'unsupported_media_type', 'This file has no video track');
      const plan = await spec.plan(fields, probe, { input, config });
      // An output bomb (KBs of FLAC silence as GBs of WAV) is refused before anything is held.
      checkOutputEstimate(
        { ...probe, durationSeconds: plan.durationSeconds },
        plan.audioCodec,
        config.media.maxOutputBytes,
      );
      if (plan.target && plan.target.bytes >= config.media.maxOutputBytes) throw outputTooLarge();
      await writeFile(keptFile(input, 'probe'), JSON.stringify(probe));
      await writeFile(keptFile(input, 'plan'), JSON.stringify(plan));
      return { applied: plan.applied };
    },
    async run({ input, inputName, inputBytes, fields, workDir, config, onProgress, signal }) {
      const target = mediaOutput(spec.target(fields));
      const output = join(workDir, `result.${target.extension}`);
      const probe =
        (await kept<MediaProbe>(input, 'probe')) ??
        (await probeMedia(config.engines.ffprobe, input, config.media));
      const plan =
        (await kept<AvPlan>(input, 'plan')) ?? (await spec.plan(fields, probe, { input, config }));
      const job = {
        ffmpegPath: config.engines.ffmpeg,
        input,
        probe,
        output,
        target,
        plan,
        limits: config.media,
        timeoutMs: jobTimeLimitMs(plan.durationSeconds),
        onProgress,
        signal,
      };
      if (plan.target) await encodeToSize(job, plan.target, join(workDir, 'pass'));
      else await transcode(job);
      // Compress never hands back more bytes than it was given.
      if (spec.compress && (await stat(output)).size >= inputBytes)
        throw new AppError(
          422,
          'already_compact',
          'This file is already compact: at this percentage it would not get smaller. Try a lower percentage.',
        );
      return {
        path: output,
        contentType: target.contentType,
        filename: resultName(inputName, { extensions: [target.extension], ...spec.name }),
      };
    },
  };
}
