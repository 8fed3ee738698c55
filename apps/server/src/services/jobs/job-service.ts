import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Job, Service } from '@refract/contracts';
import type { JobRow, JobsRepository } from '../../db/repositories/jobs-repository.js';
import type { UserRow } from '../../db/repositories/users-repository.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { Reservation } from '../quota-service.js';
import type { OwedWrites } from '../../lib/owed-writes.js';
import type { SharedVolumeGuard } from '../health/volume-marker.js';
import { createJobDir, jobDir, removeJobDir } from './job-files.js';
import type { JobQueue } from './job-queue.js';
import { INTERRUPTED, type JobRunner } from './job-runner.js';

/**
 * A running job silent this long lost its runner (heartbeats come every half second); checked
 * every RUNNER_CHECK_MS, so a dead worker's job moves on within 15 s.
 */
export const SILENT_RUNNER_MS = 10_000;
export const RUNNER_CHECK_MS = 4_000;
/** Runs a job may start: one more after its worker died, then it fails (a job that kills workers). */
export const MAX_ATTEMPTS = 2;
/** A job waiting this long without a wake-up in Redis gets a new one (the reconciler). */
export const UNWOKEN_MS = 20_000;
/** A job still waiting after this long was lost with its queue (Redis restarted without data). */
const LOST_IN_QUEUE_MS = 6 * 60 * 60 * 1000;
/**
 * A slot still receiving its upload is renewed by its process every RUNNER_CHECK_MS; one not
 * renewed this long lost its process (killed with uploads in flight), and is freed with its
 * files, so the user's places come back within half a minute rather than at UPLOAD_TIMEOUT.
 */
export const SILENT_UPLOAD_MS = 20_000;
/** An ended job's record outlives its files by this much, so a late download answers 410. */
const RECORD_KEPT_MS = 24 * 60 * 60 * 1000;
const POLL_MS = 200;
const MAX_UNFINISHED_PER_USER = 5;

/**
 * The charging rule for work that does not finish: a job cancelled once it has reached
 * CHARGE_AT_PROGRESS % or has run CHARGE_AFTER_MS is charged (it held a worker that long),
 * and so is one stopped at the time limit (job-runner). Earlier cancels cost nothing.
 */
export const CHARGE_AT_PROGRESS = 50;
export const CHARGE_AFTER_MS = 60_000;

const CANCELLED = { status: 409, code: 'job_cancelled', message: 'This job was cancelled' };
const CANCELLED_CHARGED = {
  status: 409,
  code: 'job_cancelled',
  message:
    'This job was cancelled after substantial work (half its progress, or a minute of running), so its use was charged (see the charging rule in the API documentation).',
};

const now = () => new Date().toISOString();
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const ENDED = new Set(['done', 'failed', 'cancelled']);
export const hasEnded = (job: JobRow) => ENDED.has(job.status);

/** The API's view of a job: never its paths or its user. */
export function describeJob(job: JobRow): Job {
  return {
    id: job.id,
    // A slot still receiving its upload is, to its owner, a job about to wait.
    status: job.status === 'receiving' ? 'queued' : job.status,
    charged: job.charged === 1,
    progress: job.progress,
    inputBytes: job.input_bytes,
    outputBytes: job.output_bytes,
    filename: job.result_filename,
    ...(job.error_code
      ? { error: { code: job.error_code, message: job.error_message ?? '' } }
      : {}),
    ...optionsOf(job),
  };
}

/** The options a job was given and, apart, what they did to its file (routes/tools/tool-fields.ts). */
function optionsOf(job: JobRow): Pick<Job, 'options' | 'applied'> {
  const { applied, ...options } = JSON.parse(job.fields || '{}') as Record<string, unknown>;
  return {
    options,
    ...(applied && typeof applied === 'object' ? { applied: applied as Job['applied'] } : {}),
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

/** Whether a job that is stopped now, unfinished, is charged: the rule above. */
export function chargedWhenStopped(job: JobRow, at = Date.now()): boolean {
  if (job.status !== 'running' || !job.started_at) return false;
  return job.progress >= CHARGE_AT_PROGRESS || at - Date.parse(job.started_at) >= CHARGE_AFTER_MS;
}

/** A wake-up the queue did not take in time (Redis down): nothing was kept or charged. */
export const queueUnavailable = () =>
  new AppError(
    503,
    'queue_unavailable',
    'The job queue is not answering. Nothing was charged; please try again shortly.',
    { 'retry-after': '30' },
  );

export function jobService(deps: {
  jobs: JobsRepository;
  dataDir: string;
  /** Whether DATA_DIR is the volume the other processes share (uploads and results live there). */
  volume: SharedVolumeGuard;
  queueLimit: number;
  resultTtlMs: number;
  queue: JobQueue;
  runner: JobRunner;
  /** Emits a job's id when this process changed it; other processes' changes are polled. */
  changes: EventEmitter;
  log: FastifyBaseLogger;
  /** Where a waiver waits while the database cannot take it (see `waive`). */
  owed: OwedWrites;
  metrics: Pick<Metrics, 'jobWaived'>;
}) {
  const { jobs, dataDir } = deps;
  let shuttingDown = false;
  /** Since when this process's runner checks have reached the database without a break. */
  let reachableSince: number | undefined = Date.now();
  /** Jobs this process's waiting requests are waiting for. */
  const waiting = new Set<string>();
  /** Slots this process claimed whose upload has not yet become a job or been given back. */
  const receiving = new Set<string>();

  /** Slots whose process stopped renewing them before `before`: rows and partial files go. */
  async function freeLostUploads(before: string) {
    for (const slot of await jobs.listReceivingBefore(before)) {
      if (receiving.has(slot.id)) continue;
      if (await jobs.releaseSlot(slot.id)) await removeJobDir(dataDir, slot.id);
    }
  }

  /**
   * Ends an unfinished job; its files go at once. A job that had already ended (done at that
   * very moment) is left as it is, files and charge included.
   */
  async function stop(job: JobRow, status: 'failed' | 'cancelled', charged = false) {
    const error = status === 'failed' ? INTERRUPTED : charged ? CANCELLED_CHARGED : CANCELLED;
    const ended = await jobs.end(job.id, status, now(), error, charged);
    if (!ended) return;
    deps.runner.interrupt(job.id);
    await removeJobDir(dataDir, job.id);
    deps.changes.emit(job.id);
  }

  /**
   * A waiting request for this job was answered 503 (the database could not serve it, or
   * this process drained): the user was told it did not happen, so the job costs nothing,
   * even if it finishes later and its result is kept. The mark is owed to the database when
   * it cannot take it now, and lands once it is back (a job that ended charged meanwhile is
   * given back then).
   */
  async function waive(id: string) {
    await deps.owed.run(`waive job ${id}`, () => jobs.waive(id));
    deps.metrics.jobWaived();
  }

  /** Calls `onChange` with the record whenever it changes, until it ends or `signal` aborts. */
  async function watch(id: string, onChange: (job: JobRow) => void, signal?: AbortSignal) {
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
  }

  return {
    /**
     * Claims a slot for a new job before any upload is read: refused while this user already
     * has MAX_UNFINISHED_PER_USER jobs under way (so one account cannot fill the queue) or
     * while JOB_QUEUE_LIMIT jobs wait. Check and claim are one step (jobs-repository).
     */
    async open(user: UserRow, tool: string, requestId?: string) {
      await deps.volume.assertShared();
      const id = randomUUID();
      const limits = { perUser: MAX_UNFINISHED_PER_USER, queue: deps.queueLimit };
      const claimed = await jobs.claimSlot(
        { id, user_id: user.id, tool, created_at: now(), request_id: requestId },
        limits,
      );
      if (claimed === 'user_limit')
        throw new AppError(
          429,
          'too_many_requests',
          `You already have ${MAX_UNFINISHED_PER_USER} files being processed. Wait for one to finish.`,
          { 'retry-after': '10' },
        );
      if (claimed === 'queue_full')
        throw new AppError(503, 'server_busy', 'The server is busy. Please try again shortly.', {
          'retry-after': '30',
        });
      try {
        const dir = await createJobDir(dataDir, id);
        receiving.add(id);
        return { id, dir };
      } catch (err) {
        await jobs.releaseSlot(id);
        throw err;
      }
    },

    /** Refuses work while DATA_DIR is not the shared volume (503 storage_unavailable). */
    assertSharedVolume: () => deps.volume.assertShared(),

    /** Gives back a slot whose upload failed or was refused: its row and files go. */
    async discard(id: string) {
      receiving.delete(id);
      await removeJobDir(dataDir, id);
      await jobs.releaseSlot(id);
    },

    /**
     * At shutdown, after the drain cut the uploads still arriving: their slots and partial
     * files go now rather than at another process's sweep. A slot that became a job meanwhile
     * is left to it (the row decides, before any file is touched).
     */
    async releaseReceiving() {
      for (const id of [...receiving]) {
        receiving.delete(id);
        if (await jobs.releaseSlot(id)) await removeJobDir(dataDir, id);
      }
    },

    /**
     * Turns a claimed slot whose upload is in place and whose charge is held into a queued
     * job, then wakes a runner. From here the job owns the charge: it is settled once, by
     * whatever ends the job.
     */
    async submit(job: {
      id: string;
      fields: unknown;
      service: Service;
      reservation: Reservation;
      inputBytes: number;
      /** The upload's own name, which names the result. */
      inputName?: string;
    }) {
      const admission = {
        fields: JSON.stringify(job.fields),
        service: job.service,
        period_start: job.reservation.periodStart,
        tracked: job.reservation.tracked ? 1 : 0,
        input_bytes: job.inputBytes,
        input_name: job.inputName ?? null,
      };
      receiving.delete(job.id);
      let admitted = false;
      try {
        admitted = await jobs.admit(job.id, admission, now());
      } finally {
        if (!admitted) await job.reservation.release();
      }
      if (!admitted)
        throw new AppError(503, 'server_busy', 'The server is busy. Please try again.');
      try {
        await deps.queue.add(job.id);
      } catch (err) {
        // No job is left waiting without its wake-up: it goes, its use given back.
        deps.log.warn({ err, jobId: job.id }, 'job queue unavailable');
        await stop((await jobs.find(job.id))!, 'failed');
        await jobs.remove(job.id);
        throw queueUnavailable();
      }
    },

    /**
     * The client of a waiting request went away. A job whose cancel would cost nothing is
     * cancelled (no work wasted); one that has done substantial work (it would be charged)
     * goes on, and its result is kept for the user to find in their recent jobs. While this
     * process shuts down, jobs are left to the workers alone.
     */
    async abandon(id: string) {
      if (shuttingDown) return;
      const job = await jobs.find(id);
      if (!job || hasEnded(job) || chargedWhenStopped(job)) return;
      await stop(job, 'cancelled');
    },

    waive,

    /** From now on, requests cut by the shutdown do not cancel their jobs (see `abandon`). */
    beginShutdown() {
      shuttingDown = true;
    },

    /**
     * The user's recent jobs, newest first (`GET /api/jobs`), a batch once (by its first file),
     * with how each listed batch's files stand.
     */
    async recent(user: UserRow, limit: number, before?: { createdAt: string; id: string }) {
      const rows = await jobs.listForUser(user.id, limit, before);
      const batchIds = rows.flatMap((row) => (row.batch_id ? [row.batch_id] : []));
      return { rows, batches: await jobs.batchCounts(batchIds) };
    },

    /** The job when it is the user's own; anyone else is told it does not exist. */
    async owned(user: UserRow, id: string): Promise<JobRow> {
      const job = await jobs.find(id);
      if (!job || job.user_id !== user.id) throw notFound('No such job');
      return job;
    },

    /**
     * Cancels a job that has not ended: ffmpeg is stopped and the files go. It is charged only
     * under the charging rule (substantial work done); a job that has ended is left as it is.
     */
    async cancel(job: JobRow) {
      if (hasEnded(job)) return;
      const current = await jobs.find(job.id);
      if (!current || hasEnded(current)) return;
      await stop(current, 'cancelled', chargedWhenStopped(current));
    },

    /**
     * A waiting request's wait: the ended job, or undefined when `signal` aborted first (then
     * call `waive` or `abandon`, and `endWait`). An error (the database cannot serve now) makes
     * the job free before it reaches the client as a 503, and so does a shutdown that finds
     * the wait still open (`waiveOpenWaits`).
     */
    async waitFor(id: string, signal: AbortSignal) {
      waiting.add(id);
      try {
        const job = await watch(id, () => {}, signal);
        if (job) waiting.delete(id);
        return job;
      } catch (err) {
        waiting.delete(id);
        await waive(id);
        throw err;
      }
    },

    endWait: (id: string) => waiting.delete(id),

    /** At shutdown: waits still open were answered 503 by the drain, so their jobs are free. */
    async waiveOpenWaits() {
      await Promise.all([...waiting].map((id) => waive(id)));
    },

    watch,

    /**
     * A done job's file, opened: 410 result_expired when it is gone (expired, evicted to keep
     * the user's disk allowance, or missing on disk).
     */
    async openResult(job: JobRow) {
      const expired = new AppError(
        410,
        'result_expired',
        'This result is no longer kept. Run the job again.',
      );
      if (!job.result_file) throw expired;
      try {
        const file = await open(join(jobDir(dataDir, job.id), job.result_file));
        return file.createReadStream();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        // Gone from disk: expired (410), unless this process looks at another volume (503).
        await deps.volume.assertShared();
        throw expired;
      }
    },

    /** Removes a delivered result at once rather than at its expiry. */
    async forget(job: JobRow) {
      await removeJobDir(dataDir, job.id);
      await jobs.remove(job.id);
    },

    /**
     * Housekeeping: results past RESULT_TTL are deleted (their records a day later), slots
     * whose upload never finished are given back, and jobs whose runner died (or whose queue
     * lost them) end as failed, uncharged. `everyUnfinished` is for a restart of the
     * embedded queue, where every unfinished job was this process's own.
     */
    async sweep(options: { everyUnfinished?: boolean } = {}) {
      for (const job of await jobs.listKeptBefore(ago(deps.resultTtlMs))) {
        await removeJobDir(dataDir, job.id);
        await jobs.expireResult(job.id);
      }
      for (const job of await jobs.listFinishedBefore(ago(deps.resultTtlMs + RECORD_KEPT_MS))) {
        await removeJobDir(dataDir, job.id);
        await jobs.remove(job.id);
      }
      if (options.everyUnfinished) await freeLostUploads(now());
      if (options.everyUnfinished)
        for (const job of await jobs.listSilent(now())) await stop(job, 'failed');
      else
        for (const job of await jobs.listSilent(ago(LOST_IN_QUEUE_MS)))
          if (job.status === 'queued') await stop(job, 'failed');
    },

    /**
     * Jobs whose runner stopped writing its heartbeat (its process died or hangs): re-queued
     * while attempts remain (the next run starts from the upload), otherwise failed, uncharged.
     * Whichever process gets there first moves the job; the others' updates change nothing.
     * Silence is judged only once this process has reached the database for SILENT_RUNNER_MS
     * on end: after an outage, live runners get that long to renew, so a database
     * outage does not restart every running job.
     */
    async checkRunners() {
      let silent;
      try {
        await jobs.renewReceiving([...receiving], now());
        silent = await jobs.listSilent(ago(SILENT_RUNNER_MS));
      } catch (err) {
        reachableSince = undefined;
        throw err;
      }
      reachableSince ??= Date.now();
      if (Date.now() - reachableSince < SILENT_RUNNER_MS) return;
      await freeLostUploads(ago(SILENT_UPLOAD_MS));
      const silentSince = ago(SILENT_RUNNER_MS);
      for (const job of silent) {
        if (job.status !== 'running') continue;
        if (job.attempts < MAX_ATTEMPTS) {
          if (await jobs.requeue(job.id, now(), { silentSince })) {
            deps.changes.emit(job.id);
            await deps.queue.add(job.id, { again: true });
          }
        } else await stop(job, 'failed');
      }
    },

    /**
     * Queued jobs whose wake-up Redis lost (restarted without its data, or an add that timed
     * out after all) get a new one. An extra wake-up costs nothing: it finds no job and ends.
     */
    async reconcile(missing: (ids: string[]) => Promise<string[]>) {
      const waiting = await jobs.listQueuedBefore(ago(UNWOKEN_MS));
      for (const id of await missing(waiting.map((job) => job.id))) await deps.queue.add(id);
    },
  };
}

export type JobService = ReturnType<typeof jobService>;
