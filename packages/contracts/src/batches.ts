import { z } from 'zod';
import { JOB_STATUSES } from './media.js';

/** The query of POST /api/batch/<tool>: the file count, declared so limits are checked first. */
export const batchQuerySchema = z.object({
  files: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe('How many files the form holds: over the plan limit, refused before the upload'),
});

/**
 * The multipart field of a batch's per-file settings, sent with the tool's fields (before the
 * files): JSON `{"<file index from 0>": {"<tool field>": value}}`. A file listed here runs
 * with the shared fields and these on top (crop frame, blur areas, watermark position of that
 * one image); every other file runs with the shared fields alone.
 */
export const BATCH_PER_FILE_FIELD = 'perFile';

const perFileValue = z.union([z.string(), z.number(), z.boolean()]);

export const batchPerFileSchema = z.record(
  z.string().regex(/^\d{1,6}$/, 'keys are file indexes from 0'),
  z.record(z.string(), perFileValue),
);
export type BatchPerFile = z.infer<typeof batchPerFileSchema>;

/** Sent by clients with the same meaning as `?files=`. */
export const BATCH_FILES_HEADER = 'x-batch-files';

/** One file of a batch: its own job, with the name it came with and the name of its result. */
export const batchFileSchema = z.object({
  /** Its place in the upload, from 0; the key of its result download. */
  index: z.number().int(),
  /** The job running it (also readable at /api/jobs/{id}). */
  jobId: z.string(),
  name: z.string(),
  status: z.enum(JOB_STATUSES),
  /** 0 to 100. */
  progress: z.number(),
  inputBytes: z.number(),
  outputBytes: z.number().nullable(),
  /** Its result's name in the zip and as a download: the file's own name, the new extension. */
  filename: z.string().nullable(),
  charged: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type BatchFile = z.infer<typeof batchFileSchema>;

export const BATCH_STATUSES = ['receiving', 'running', 'done', 'cancelled'] as const;

/** A batch in either of these states changes no more. */
export const batchHasEnded = (batch: { status: (typeof BATCH_STATUSES)[number] }) =>
  batch.status === 'done' || batch.status === 'cancelled';

export const batchSchema = z.object({
  id: z.string(),
  tool: z.string(),
  /** running while any file waits or runs; done once every file has ended (done or failed). */
  status: z.enum(BATCH_STATUSES),
  createdAt: z.string(),
  counts: z.object({
    total: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    unfinished: z.number().int(),
  }),
  files: z.array(batchFileSchema),
});
export type Batch = z.infer<typeof batchSchema>;

export const batchCreatedSchema = z.object({ batchId: z.string() });
