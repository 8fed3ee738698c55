import { z } from 'zod';

/** Audio targets (spec section 9). amr needs an AMR-NB encoder, which some ffmpeg builds lack. */
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

export const VIDEO_FORMATS = ['mp4', 'mkv', 'webm', 'avi', 'mov', 'flv'] as const;
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

/** Compress keeps this share of the quality, 10 to 90 (spec section 9). */
const percentage = (fallback: number) => z.coerce.number().int().min(10).max(90).default(fallback);

/** Multipart text fields of the audio and video tools (file parts `audio` and `video`). */
export const convertAudioFieldsSchema = z.object({ format: z.enum(AUDIO_FORMATS).default('mp3') });
/** A video converts to another video format, or to an audio format (its sound track). */
export const convertVideoFieldsSchema = z.object({
  format: z.enum([...VIDEO_FORMATS, ...AUDIO_FORMATS]).default('mp4'),
});
export const compressAudioFieldsSchema = z.object({ percentage: percentage(50) });
export const compressVideoFieldsSchema = z.object({ percentage: percentage(40) });

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
});
export type Job = z.infer<typeof jobSchema>;

/** One of the user's recent jobs (`GET /api/jobs`): its state, and where its file is. */
export const recentJobSchema = jobSchema.extend({
  /** The service it used (convert-audio, compress-video, …). */
  service: z.string(),
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
