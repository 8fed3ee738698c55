import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { batchHasEnded, type Batch, type BatchFile, type Service } from '@refract/contracts';
import type { BatchesRepository, BatchRow } from '../../db/repositories/batches-repository.js';
import type { JobRow } from '../../db/repositories/jobs-repository.js';
import type { UserRow } from '../../db/repositories/users-repository.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { batchResultName, uniqueNames } from '../../tools/batch-names.js';
import type { QuotaService, Reservation } from '../quota-service.js';
import { jobDir, removeJobDir } from '../jobs/job-files.js';
import { zipFiles } from './results-zip.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { describeJob, hasEnded, queueUnavailable, type JobService } from '../jobs/job-service.js';

/** Batches one user may have under way at once: each can hold a plan's whole batch limit. */
const BATCHES_PER_USER = 2;
const POLL_MS = 200;
/** A batch still receiving after the upload timeout and this margin lost its process. */
const RECEIVING_MARGIN_MS = 60_000;
/** An ended batch's record outlives its files' records a little (they go a day after RESULT_TTL). */
const RECORD_KEPT_MS = 2 * 24 * 60 * 60 * 1000;

const now = () => new Date().toISOString();
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** A received file whose use is held, waiting for the rest of the upload. */
export interface HeldFile {
  file: { id: string; index: number; name: string; bytes: number };
  job: { fields: unknown; service: Service };
  reservation: Reservation;
}

/** The error a file refused before it was queued is recorded with (its job never runs). */
export interface FileRefusal {
  status: number;
  code: string;
  message: string;
}

/** The file's job row and its download name (unique within the batch), in upload order. */
function namedFiles(files: JobRow[]) {
  const results = files.filter((f) => f.result_filename);
  const names = uniqueNames(results.map((f) => batchResultName(f.input_name, f.result_filename!)));
  const byId = new Map(results.map((f, i) => [f.id, names[i]!]));
  return files.map((file) => ({ file, filename: byId.get(file.id) ?? null }));
}

function batchStatus(batch: BatchRow, files: JobRow[]): Batch['status'] {
  if (batch.status === 'receiving') return 'receiving';
  if (batch.status === 'cancelled') return 'cancelled';
  return files.every(hasEnded) ? 'done' : 'running';
}

/** The API's view of a batch: its files' states, never paths or its user. */
export function describeBatch(batch: BatchRow, files: JobRow[]): Batch {
  const described: BatchFile[] = namedFiles(files).map(({ file, filename }) => {
    const job = describeJob(file);
    return {
      index: file.batch_index ?? 0,
      jobId: file.id,
      name: file.input_name ?? '',
      status: job.status,
      progress: job.progress,
      inputBytes: job.inputBytes,
      outputBytes: job.outputBytes,
      filename,
      charged: job.charged,
      ...(job.error ? { error: job.error } : {}),
    };
  });
  const count = (status: string) => described.filter((f) => f.status === status).length;
  return {
    id: batch.id,
    tool: batch.tool,
    status: batchStatus(batch, files),
    createdAt: batch.created_at,
    counts: {
      total: described.length,
      done: count('done'),
      failed: count('failed') + count('cancelled'),
      unfinished: count('queued') + count('running'),
    },
    files: described,
  };
}

/**
 * Batches (decision 020): one job per file on the usual queue and runner, each charged one use
 * with the usual reservation; the batch row only groups them, for its owner.
 */
export function batchService(deps: {
  batches: BatchesRepository;
  jobService: JobService;
  quotas: QuotaService;
  queue: JobQueue;
  dataDir: string;
  resultTtlMs: number;
  uploadTimeoutMs: number;
  log: FastifyBaseLogger;
}) {
  const { batches, jobService, quotas, dataDir } = deps;

  /** Records a file that will not run (too large, unreadable, over the quota); its files go. */
  async function refuse(
    batch: BatchRow,
    file: { id: string; index: number; name: string; bytes: number },
    error: FileRefusal,
  ) {
    await removeJobDir(dataDir, file.id);
    const at = now();
    await batches.addFile({
      id: file.id,
      user_id: batch.user_id,
      tool: batch.tool,
      fields: '{}',
      service: '',
      period_start: '',
      status: 'failed',
      progress: 0,
      attempts: 0,
      waived: 0,
      runner: null,
      input_bytes: file.bytes,
      error_status: error.status,
      error_code: error.code,
      error_message: error.message,
      created_at: at,
      updated_at: at,
      finished_at: at,
      charged: 0,
      batch_id: batch.id,
      batch_index: file.index,
      input_name: file.name,
    });
  }

  return {
    refuse,

    /** Opens a batch for `user` before its upload is read (refused while two are under way). */
    async open(user: UserRow, tool: string): Promise<BatchRow> {
      await jobService.assertSharedVolume();
      const row = { id: randomUUID(), user_id: user.id, tool, created_at: now() };
      if (!(await batches.open(row, BATCHES_PER_USER)))
        throw new AppError(
          429,
          'too_many_requests',
          `You already have ${BATCHES_PER_USER} batches being processed. Wait for one to finish.`,
          { 'retry-after': '10' },
        );
      return { ...row, status: 'receiving' };
    },

    /** A new file's job id and the directory its upload goes to (DATA_DIR/jobs/<id>). */
    fileSlot() {
      const id = randomUUID();
      return { id, input: join(jobDir(dataDir, id), 'input') };
    },

    /**
     * Holds one use for a received file; a file over the quota is recorded as failed with
     * `quota_exceeded`, unprocessed (undefined back). Held files are queued by `start` once the
     * whole upload is in, or given back by `drop`, so a refused upload never costs a use.
     */
    async hold(
      user: UserRow,
      batch: BatchRow,
      file: { id: string; index: number; name: string; bytes: number },
      job: { fields: unknown; service: Service },
    ): Promise<HeldFile | undefined> {
      try {
        return { file, job, reservation: await quotas.reserve(user, job.service, 1) };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await refuse(batch, file, err);
        return undefined;
      }
    },

    /** Gives back the uses and removes the uploads of files that will not run. */
    async drop(held: HeldFile[]) {
      for (const { file, reservation } of held) {
        await reservation.release();
        await removeJobDir(dataDir, file.id);
      }
    },

    /** Every file is in: each held file becomes a queued job, which from then on owns its charge. */
    async start(batch: BatchRow, held: HeldFile[]) {
      for (const [i, { file, job, reservation }] of held.entries()) {
        const at = now();
        try {
          await batches.addFile({
            id: file.id,
            user_id: batch.user_id,
            tool: batch.tool,
            fields: JSON.stringify(job.fields),
            service: job.service,
            period_start: reservation.periodStart,
            tracked: reservation.tracked ? 1 : 0,
            status: 'queued',
            progress: 0,
            attempts: 0,
            waived: 0,
            runner: null,
            input_bytes: file.bytes,
            created_at: at,
            updated_at: at,
            charged: 0,
            batch_id: batch.id,
            batch_index: file.index,
            input_name: file.name,
          });
        } catch (err) {
          await this.drop(held.slice(i));
          throw err;
        }
      }
      await batches.setStatus(batch.id, 'open');
      try {
        // Each wake-up has the queue's own deadline (as for single jobs).
        for (const { file } of held) await deps.queue.add(file.id);
      } catch (err) {
        // The caller cancels the batch: no file is left waiting without its wake-up.
        deps.log.warn({ err, batchId: batch.id }, 'job queue unavailable');
        throw queueUnavailable();
      }
    },

    /** The batch when it is the user's own; anyone else is told it does not exist. */
    async owned(user: UserRow, id: string): Promise<BatchRow> {
      const batch = await batches.find(id);
      if (!batch || batch.user_id !== user.id) throw notFound('No such batch');
      return batch;
    },

    /** The batch as `batch` (a row just read) and its files now say: what a poll reads. */
    async describe(batch: BatchRow): Promise<Batch> {
      return describeBatch(batch, await batches.files(batch.id));
    },

    /** Files not yet done are cancelled (their uses given back, as for any job); done ones stay. */
    async cancel(batch: BatchRow) {
      await batches.setStatus(batch.id, 'cancelled');
      for (const file of await batches.files(batch.id))
        if (!hasEnded(file)) await jobService.cancel(file);
    },

    /** Calls `onChange` with the batch whenever it changes, until it ends or `signal` aborts. */
    async watch(batch: BatchRow, onChange: (batch: Batch) => void, signal?: AbortSignal) {
      let last = '';
      while (!signal?.aborted) {
        const row = await batches.find(batch.id);
        if (!row) return;
        const state = describeBatch(row, await batches.files(batch.id));
        const seen = JSON.stringify(state);
        if (seen !== last) onChange(state);
        last = seen;
        if (batchHasEnded(state)) return;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },

    /** One file's result, opened, with its batch name. */
    async openFile(batch: BatchRow, index: number) {
      const named = namedFiles(await batches.files(batch.id));
      const entry = named.find(({ file }) => file.batch_index === index);
      if (!entry) throw notFound('No such file in this batch');
      const { file, filename } = entry;
      if (file.status === 'failed' || file.status === 'cancelled')
        throw new AppError(
          409,
          (file.error_code ?? 'processing_failed') as AppError['code'],
          file.error_message ?? 'Processing failed',
        );
      if (file.status !== 'done')
        throw new AppError(409, 'job_not_finished', 'This file has not finished yet');
      return {
        stream: await jobService.openResult(file),
        filename: filename!,
        contentType: file.result_content_type!,
      };
    },

    /**
     * The batch's results as one zip, written as it is read (results-zip.ts). Results already
     * expired are left out and named in a trailing entry; none at all is 410 result_expired.
     */
    async zip(batch: BatchRow): Promise<Readable> {
      // Checked first: on another volume the files would fail one by one, mid-download.
      await jobService.assertSharedVolume();
      const named = namedFiles(await batches.files(batch.id)).filter(
        ({ file }) => file.status === 'done' && file.result_file,
      );
      if (named.length === 0)
        throw new AppError(410, 'result_expired', 'This batch has no results to download');
      return zipFiles(
        named.map(({ file, filename }) => ({
          name: filename!,
          path: join(jobDir(dataDir, file.id), file.result_file!),
        })),
      );
    },

    /**
     * Housekeeping beside the jobs' own sweep (which expires the files' results): a batch whose
     * upload never finished is cancelled, and a batch whose files' records are gone is removed.
     */
    async sweep(options: { everyUnfinished?: boolean } = {}) {
      const lost = options.everyUnfinished
        ? now()
        : ago(deps.uploadTimeoutMs + RECEIVING_MARGIN_MS);
      for (const batch of await batches.listReceivingBefore(lost)) {
        await batches.setStatus(batch.id, 'cancelled');
        for (const file of await batches.files(batch.id))
          if (!hasEnded(file)) await jobService.cancel(file);
      }
      await batches.removeEmptyBefore(ago(deps.resultTtlMs + RECORD_KEPT_MS));
    },
  };
}

export type BatchService = ReturnType<typeof batchService>;
