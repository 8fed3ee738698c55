import type { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Job, Service } from '@refract/contracts';
import type { JobRow, JobsRepository } from '../../db/repositories/jobs-repository.js';
import type { UserRow } from '../../db/repositories/users-repository.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { QuotaService, Reservation } from '../quota-service.js';
import { createJobDir, jobDir, removeJobDir } from './job-files.js';
import type { JobQueue } from './job-queue.js';
import { chargeOf, INTERRUPTED, type JobRunner } from './job-runner.js';

/** A running job silent this long lost its runner (heartbeats come every half second). */
const SILENT_RUNNER_MS = 60_000;
/** A job still waiting after this long was lost with its queue (Redis restarted without data). */
const LOST_IN_QUEUE_MS = 6 * 60 * 60 * 1000;
const POLL_MS = 200;
const MAX_UNFINISHED_PER_USER = 5;

const CANCELLED = { status: 409, code: 'job_cancelled', message: 'This job was cancelled' };

const now = () => new Date().toISOString();
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const ENDED = new Set(['done', 'failed', 'cancelled']);
export const hasEnded = (job: JobRow) => ENDED.has(job.status);

/** The API's view of a job: never its paths or its user. */
export function describeJob(job: JobRow): Job {
  return {
    id: job.id,
    status: job.status,
    progress: job.progress,
    inputBytes: job.input_bytes,
    outputBytes: job.output_bytes,
    filename: job.result_filename,
    ...(job.error_code
      ? { error: { code: job.error_code, message: job.error_message ?? '' } }
      : {}),
  };
}

/** The error a failed job answers a waiting request with. */
export const jobError = (job: JobRow) =>
  new AppError(
    job.error_status ?? 500,
    (job.error_code ?? 'processing_failed') as AppError['code'],
    job.error_message ?? 'Processing failed',
  );

/** Resolves on the job's next local change, after POLL_MS at most, or when `signal` aborts. */
function nextChange(changes: EventEmitter, id: string, signal?: AbortSignal) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      changes.off(id, done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, POLL_MS);
    changes.once(id, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function jobService(deps: {
  jobs: JobsRepository;
  quotas: QuotaService;
  dataDir: string;
  queueLimit: number;
  resultTtlMs: number;
  queue: JobQueue;
  runner: JobRunner;
  /** Emits a job's id when this process changed it; other processes' changes are polled. */
  changes: EventEmitter;
}) {
  const { jobs, quotas, dataDir } = deps;

  /** Ends an unfinished job without charging it; its files go at once. */
  async function endUncharged(job: JobRow, status: 'failed' | 'cancelled') {
    const error = status === 'failed' ? INTERRUPTED : CANCELLED;
    if (await jobs.end(job.id, status, now(), error)) await quotas.settle(chargeOf(job), 'release');
    await removeJobDir(dataDir, job.id);
    deps.changes.emit(job.id);
  }

  return {
    /**
     * Refuses new work, before any upload is read, while the queue is full, or while this user
     * already has MAX_UNFINISHED_PER_USER jobs under way (so one account cannot fill the queue).
     */
    async assertRoom(user: UserRow) {
      if ((await jobs.countUnfinished(user.id)) >= MAX_UNFINISHED_PER_USER)
        throw new AppError(
          429,
          'too_many_requests',
          `You already have ${MAX_UNFINISHED_PER_USER} files being processed. Wait for one to finish.`,
          { 'retry-after': '10' },
        );
      if ((await jobs.countQueued()) >= deps.queueLimit)
        throw new AppError(503, 'server_busy', 'The server is busy. Please try again shortly.', {
          'retry-after': '30',
        });
    },

    /** A directory for a new job's upload. */
    async prepare() {
      const id = randomUUID();
      return { id, dir: await createJobDir(dataDir, id) };
    },

    discard: (id: string) => removeJobDir(dataDir, id),

    /**
     * Records a job whose upload is in place and whose charge is held, then queues it. From
     * here the job owns the charge: it is settled once, by whatever ends the job.
     */
    async submit(job: {
      id: string;
      user: UserRow;
      tool: string;
      fields: unknown;
      service: Service;
      reservation: Reservation;
      inputBytes: number;
    }) {
      const record = {
        id: job.id,
        user_id: job.user.id,
        tool: job.tool,
        fields: JSON.stringify(job.fields),
        service: job.service,
        period_start: job.reservation.periodStart,
        input_bytes: job.inputBytes,
        created_at: now(),
      };
      try {
        await jobs.create(record);
      } catch (err) {
        await job.reservation.release();
        throw err;
      }
      try {
        await deps.queue.add(job.id);
      } catch (err) {
        await endUncharged((await jobs.find(job.id))!, 'failed');
        throw err;
      }
    },

    /** The job when it is the user's own; anyone else is told it does not exist. */
    async owned(user: UserRow, id: string): Promise<JobRow> {
      const job = await jobs.find(id);
      if (!job || job.user_id !== user.id) throw notFound('No such job');
      return job;
    },

    /** Cancels a job that has not ended: ffmpeg is stopped, the files go, nothing is charged. */
    async cancel(job: JobRow) {
      if (hasEnded(job)) return;
      deps.runner.interrupt(job.id);
      await endUncharged(job, 'cancelled');
    },

    /** Calls `onChange` with the record whenever it changes, until it ends or `signal` aborts. */
    async watch(id: string, onChange: (job: JobRow) => void, signal?: AbortSignal) {
      let last = '';
      while (!signal?.aborted) {
        const job = await jobs.find(id);
        if (!job) return undefined;
        const seen = `${job.status}:${job.progress}`;
        if (seen !== last) onChange(job);
        last = seen;
        if (hasEnded(job)) return job;
        await nextChange(deps.changes, id, signal);
      }
      return undefined;
    },

    resultPath: (job: JobRow) => join(jobDir(dataDir, job.id), job.result_file!),

    /** Removes a delivered result at once rather than at its expiry. */
    async forget(job: JobRow) {
      await removeJobDir(dataDir, job.id);
      await jobs.remove(job.id);
    },

    /**
     * Housekeeping: results past RESULT_TTL are deleted, and jobs whose runner died (or whose
     * queue lost them) end as failed, uncharged. `everyUnfinished` is for a restart of the
     * embedded queue, where every unfinished job was this process's own.
     */
    async sweep(options: { everyUnfinished?: boolean } = {}) {
      for (const job of await jobs.listFinishedBefore(ago(deps.resultTtlMs))) {
        await removeJobDir(dataDir, job.id);
        await jobs.remove(job.id);
      }
      const silentSince = options.everyUnfinished ? now() : ago(SILENT_RUNNER_MS);
      for (const job of await jobs.listSilent(silentSince)) {
        const lost =
          options.everyUnfinished ||
          job.status === 'running' ||
          job.created_at < ago(LOST_IN_QUEUE_MS);
        if (lost) await endUncharged(job, 'failed');
      }
    },
  };
}

export type JobService = ReturnType<typeof jobService>;
