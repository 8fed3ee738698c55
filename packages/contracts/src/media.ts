import { z } from 'zod';

/** Audio targets. amr needs an AMR-NB encoder, which some ffmpeg builds lack. */
export const AUDIO_FORMATS = [
  'wav',
  'aiff',
  'pcm',
  'mp3',
  'aac',
  'ogg',
  'flac',
  'alac',
  'm4a',
  'opus',
  'amr',
] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** gif: a palette-generated animation of a segment (no sound). */
export const VIDEO_FORMATS = ['mp4', 'mkv', 'webm', 'avi', 'mov', 'flv', 'gif'] as const;
export type VideoFormat = (typeof VIDEO_FORMATS)[number];

export type MediaFormat = AudioFormat | VideoFormat;

export const mediaFormatInfoSchema = z.object({
  format: z.enum([...AUDIO_FORMATS, ...VIDEO_FORMATS]),
  kind: z.enum(['audio', 'video']),
  available: z.boolean(),
  /** Why this server cannot write it, in English; the web translates by format. */
  reason: z.string().optional(),
});
export type MediaFormatInfo = z.infer<typeof mediaFormatInfoSchema>;

/** Compress keeps this share of the quality, 10 to 90. */
const percentage = (fallback: number) => z.coerce.number().int().min(10).max(90).default(fallback);

const flag = z.enum(['true', 'false']);
/** Seconds into the file, to the millisecond; the file's own length bounds it (422 trim_out_of_range). */
const second = z.coerce.number().min(0).max(36_000).optional();

/** Lossless targets: their size follows the samples, so a bitrate means nothing to them. */
export const LOSSLESS_AUDIO_FORMATS = ['wav', 'aiff', 'pcm', 'flac', 'alac'] as const;
export const AUDIO_SAMPLE_RATES = [8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000] as const;
/** Opus encodes only these rates. */
export const OPUS_SAMPLE_RATES = [8000, 16000, 24000, 48000] as const;
export const VIDEO_RESOLUTIONS = ['keep', '2160', '1440', '1080', '720', '480', '360'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];
export const VIDEO_CODECS = ['h264', 'h265', 'vp9', 'av1'] as const;
export type VideoCodec = (typeof VIDEO_CODECS)[number];
export const VIDEO_FRAME_RATES = [12, 15, 24, 25, 30, 50, 60] as const;
/** What happens to a video's sound: re-encoded for the container, copied as it is, or removed. */
export const VIDEO_AUDIO_MODES = ['reencode', 'copy', 'remove'] as const;
export const VIDEO_ROTATIONS = ['0', '90', '180', '270'] as const;
/** A GIF holds a short segment: longer ones are 422 media_too_large (choose start and end). */
export const GIF_MAX_SECONDS = 30;

/** Start and end of the part kept, in seconds; either alone trims one side. */
const trimShape = { start: second, end: second };

/** Options of every audio result (convert audio, compress audio, a video's sound track). */
const audioShape = {
  ...trimShape,
  /** Constant bitrate in kbps (lossy targets only). */
  bitrate: z.coerce.number().int().min(8).max(320).optional(),
  /** Variable quality, LAME's scale: 0 best and largest, 9 smallest (mp3, ogg, opus, aac, m4a). */
  vbr: z.coerce.number().int().min(0).max(9).optional(),
  sampleRate: z.coerce
    .number()
    .int()
    .refine((rate) => (AUDIO_SAMPLE_RATES as readonly number[]).includes(rate), {
      message: `must be one of ${AUDIO_SAMPLE_RATES.join(', ')}`,
    })
    .optional(),
  channels: z.enum(['mono', 'stereo']).optional(),
  /** EBU R128 loudness normalisation (ffmpeg's loudnorm, -16 LUFS). */
  normalize: flag.default('false'),
  /** Fade lengths in seconds. */
  fadeIn: z.coerce.number().min(0).max(60).optional(),
  fadeOut: z.coerce.number().min(0).max(60).optional(),
};

/** Options of every video result. */
const videoShape = {
  ...trimShape,
  /** The short side in pixels; never larger than the source unless `upscale` is true. */
  resolution: z.enum(VIDEO_RESOLUTIONS).default('keep'),
  upscale: flag.default('false'),
  /** Frames per second; never more than the source has. */
  fps: z.coerce
    .number()
    .int()
    .refine((rate) => (VIDEO_FRAME_RATES as readonly number[]).includes(rate), {
      message: `must be one of ${VIDEO_FRAME_RATES.join(', ')}`,
    })
    .optional(),
  /** The picture codec; by default the container's usual one. */
  codec: z.enum(VIDEO_CODECS).optional(),
  audio: z.enum(VIDEO_AUDIO_MODES).default('reencode'),
  /** Clockwise, in degrees. */
  rotate: z.enum(VIDEO_ROTATIONS).default('0'),
  /** The largest result wanted, in MB (1 000 000 bytes): bitrate from the length, two passes. */
  targetSize: z.coerce.number().min(0.01).max(4096).optional(),
};

type Issue = { path: string[]; message: string };
function checkTrim(fields: { start?: number; end?: number }, issues: Issue[]) {
  if (fields.start !== undefined && fields.end !== undefined && fields.end <= fields.start)
    issues.push({ path: ['end'], message: 'must be after start' });
}
function checkAudio(
  fields: { bitrate?: number; vbr?: number; sampleRate?: number; channels?: string },
  format: string,
  issues: Issue[],
) {
  if (fields.bitrate !== undefined && fields.vbr !== undefined)
    issues.push({ path: ['vbr'], message: 'choose a bitrate or a VBR quality, not both' });
  const lossless = (LOSSLESS_AUDIO_FORMATS as readonly string[]).includes(format);
  if (lossless && (fields.bitrate !== undefined || fields.vbr !== undefined))
    issues.push({ path: ['bitrate'], message: `${format} is lossless: it takes no bitrate` });
  const fixed = fields.bitrate ?? fields.vbr ?? fields.sampleRate;
  if (format === 'amr' && (fixed !== undefined || fields.channels === 'stereo'))
    issues.push({ path: ['format'], message: 'amr is fixed at 8 kHz mono' });
  const opusRates: readonly number[] = OPUS_SAMPLE_RATES;
  if (format === 'opus' && fields.sampleRate && !opusRates.includes(fields.sampleRate))
    issues.push({ path: ['sampleRate'], message: `opus takes ${opusRates.join(', ')}` });
}
const refineWith =
  <T>(check: (fields: T, issues: Issue[]) => void) =>
  (fields: T, ctx: z.RefinementCtx) => {
    const issues: Issue[] = [];
    check(fields, issues);
    for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
  };

/** Multipart text fields of the audio and video tools (file parts `audio` and `video`). */
export const convertAudioFieldsSchema = z
  .object({ format: z.enum(AUDIO_FORMATS).default('mp3'), ...audioShape })
  .superRefine(
    refineWith((f, issues) => {
      checkTrim(f, issues);
      checkAudio(f, f.format, issues);
    }),
  );
export type ConvertAudioFields = z.output<typeof convertAudioFieldsSchema>;

/**
 * A video converts to another video format, a GIF of a segment, or an audio format (its sound
 * track, with the audio options).
 */
export const convertVideoFieldsSchema = z
  .object({
    format: z.enum([...VIDEO_FORMATS, ...AUDIO_FORMATS]).default('mp4'),
    ...videoShape,
    ...audioShape,
  })
  .superRefine(
    refineWith((f, issues) => {
      checkTrim(f, issues);
      if ((AUDIO_FORMATS as readonly string[]).includes(f.format)) checkAudio(f, f.format, issues);
    }),
  );
export type ConvertVideoFields = z.output<typeof convertVideoFieldsSchema>;

/** `bitrate` or `vbr`, when given, replace the percentage. */
export const compressAudioFieldsSchema = z
  .object({ percentage: percentage(50), ...audioShape })
  .superRefine(
    refineWith((f, issues) => {
      checkTrim(f, issues);
      checkAudio(f, 'mp3', issues);
    }),
  );
export type CompressAudioFields = z.output<typeof compressAudioFieldsSchema>;

/** `targetSize`, when given, replaces the percentage. */
export const compressVideoFieldsSchema = z
  .object({ percentage: percentage(40), ...videoShape })
  .superRefine(refineWith(checkTrim));
export type CompressVideoFields = z.output<typeof compressVideoFieldsSchema>;

/** The options a job was given, and what they did to this file (the bitrate chosen, …). */
const appliedSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export type Applied = z.infer<typeof appliedSchema>;

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** `GET /api/jobs/:id` and each Server-Sent Event of `/events`. */
export const jobSchema = z.object({
  id: z.string(),
  status: z.enum(JOB_STATUSES),
  /** 0 to 100. */
  progress: z.number(),
  inputBytes: z.number(),
  outputBytes: z.number().nullable(),
  /** The download name once done. */
  filename: z.string().nullable(),
  /**
   * Whether this job's use counts against the quota: true once done, and for a job cancelled
   * after substantial work (50 % progress or a minute of running) or stopped at the time limit.
   * While a job is under way its use is held, not yet counted.
   */
  charged: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** The options the job was given (a single job's parsed, defaults filled in; a batch's as sent). */
  options: z.record(z.string(), z.unknown()).optional(),
  /** What they did to this file: `{ bitrateKbps: 96, bitrateFrom: 'source', trimBy: 'copy' }`. */
  applied: appliedSchema.optional(),
});
export type Job = z.infer<typeof jobSchema>;

/** One of the user's recent jobs (`GET /api/jobs`): its state, and where its file is. */
/** A batch in the recent list: one entry for all its files, which `/api/batches/{id}` lists. */
export const recentBatchSchema = z.object({
  id: z.string(),
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
});

export const recentJobSchema = jobSchema.extend({
  /** The service it used (convert-audio, compress-video, …). */
  service: z.string(),
  /** The tool that ran it (convert-audio, compress, …). */
  tool: z.string(),
  /** The name the file was uploaded with (a batch's: its first file's). */
  inputName: z.string().nullable(),
  /**
   * Set when the entry stands for a whole batch: its status is the batch's (running while a
   * file waits or runs, failed when every file failed, else done), and `resultUrl` its zip.
   */
  batch: recentBatchSchema.nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** `/api/jobs/{id}/result` while the file is kept; null otherwise. */
  resultUrl: z.string().nullable(),
});
export type RecentJob = z.infer<typeof recentJobSchema>;

export const JOB_PAGE_MAX = 50;

export const recentJobsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(JOB_PAGE_MAX).default(20),
  /** `nextCursor` from the previous page. */
  cursor: z.string().max(200).optional(),
});

export const recentJobsSchema = z.object({
  jobs: z.array(recentJobSchema),
  /** Pass as `cursor` for older jobs; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type RecentJobs = z.infer<typeof recentJobsSchema>;

export const jobCreatedSchema = z.object({ jobId: z.string() });
