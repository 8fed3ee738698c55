import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { JobError, JobRow, JobsRepository } from '../../db/repositories/jobs-repository.js';
import { AppError } from '../../lib/app-error.js';
import type { Engines } from '../../media/engines.js';
import { TOOL_REGISTRY } from '../../tools/registry.js';
import type { QuotaService } from '../quota-service.js';
import { jobDir, removeJobDir } from './job-files.js';

/** Stopped at the time limit, the job held a worker that long: it is charged (docs/api.md). */
const CHARGED_WHEN_STOPPED = new Set(['processing_timeout']);

/** How often a running job records its progress and learns whether it was cancelled. */
export const HEARTBEAT_MS = 500;

export const INTERRUPTED: JobError = {
  status: 503,
  code: 'processing_failed',
  message: 'The server stopped while this job ran. It was not charged; please try again.',
};

const now = () => new Date().toISOString();

/** The charge a job holds, as quota-service settles it. */
export const chargeOf = (job: JobRow) => ({
  userId: job.user_id,
  service: job.service,
  periodStart: job.period_start,
  count: 1,
});

/** Our error for the job record: a tool's own AppError, or a generic failure (logged in full). */
function toJobError(err: unknown, log: FastifyBaseLogger, id: string): JobError {
  if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
  log.error({ err, jobId: id }, 'job failed');
  return { status: 500, code: 'processing_failed', message: 'Processing failed' };
}

/**
 * Runs jobs, in whichever process a queue entry woke: claims the next record fairly, runs the
 * tool with progress and cancellation, then settles the quota charge once, by whoever moved
 * the record to its end (the runner, a cancel, or a sweep).
 */
export function jobRunner(deps: {
  jobs: JobsRepository;
  quotas: QuotaService;
  config: Config;
  engines: Engines;
  log: FastifyBaseLogger;
  /** Told when a job this process runs has moved on, so local watchers need not wait a poll. */
  changed(id: string): void;
}) {
  const { jobs, quotas, config, log } = deps;
  const running = new Map<string, AbortController>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  /**
   * Runs the next job, chosen fairly from the database (jobs-repository `claimNext`), not the
   * one whose id woke us: a queue entry is only a wake-up, one per job, so every job is run.
   */
  function runNext(): Promise<void> {
    if (closed) return Promise.resolve();
    const work = claimAndRun();
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  }

  async function claimAndRun(): Promise<void> {
    const job = await jobs.claimNext(now());
    if (job) await runClaimed(job);
  }

  /**
   * Keeps the user's kept results, plus `room` bytes for one about to be kept, within
   * RESULT_DISK_PER_USER: the newest stay, the oldest are expired (their download then
   * answers 410 result_expired).
   */
  async function keepWithinAllowance(userId: string, room: number) {
    let kept = room;
    for (const result of await jobs.listKeptResults(userId)) {
      kept += result.output_bytes ?? 0;
      if (kept <= config.jobs.resultBytesPerUser) continue;
      await removeJobDir(config.dataDir, result.id);
      await jobs.expireResult(result.id);
    }
  }

  async function runClaimed(job: JobRow): Promise<void> {
    const id = job.id;
    const tool = TOOL_REGISTRY.find((t) => t.id === job.tool);
    const dir = jobDir(config.dataDir, id);
    const abort = new AbortController();
    running.set(id, abort);
    let progress = 0;
    const heartbeat = setInterval(() => {
      jobs
        .heartbeat(id, progress, now())
        .then((alive) => (alive ? deps.changed(id) : abort.abort()))
        .catch((err: unknown) => log.warn({ err, jobId: id }, 'job heartbeat failed'));
    }, HEARTBEAT_MS);
    try {
      if (!tool) throw new Error(`No tool ${job.tool}`);
      const result = await tool.run({
        input: join(dir, 'input'),
        inputBytes: job.input_bytes,
        inputName: job.input_name ?? undefined,
        fields: tool.fields.parse(JSON.parse(job.fields)),
        workDir: dir,
        engines: deps.engines,
        config,
        // 100 means done, which only the finished record says.
        onProgress: (fraction) => (progress = Math.min(99, Math.floor(fraction * 100))),
        signal: abort.signal,
      });
      const bytes = (await stat(result.path)).size;
      if (bytes > config.jobs.resultBytesPerUser)
        throw new AppError(
          413,
          'file_too_large',
          'The result is larger than the disk space kept for each user (RESULT_DISK_PER_USER)',
        );
      const file = basename(result.path);
      const stored = { file, filename: result.filename, contentType: result.contentType, bytes };
      // Room is made before the job shows as done, and checked again after, in case another
      // of this user's jobs finished at the same moment.
      await keepWithinAllowance(job.user_id, bytes);
      if (await jobs.finishDone(id, stored, now())) {
        await quotas.settle(chargeOf(job), 'confirm');
        await keepWithinAllowance(job.user_id, 0);
      } else await removeJobDir(config.dataDir, id);
    } catch (err) {
      if (!abort.signal.aborted) {
        const error = toJobError(tool?.mapError?.(err) ?? err, log, id);
        const charged = CHARGED_WHEN_STOPPED.has(error.code);
        if (await jobs.end(id, 'failed', now(), error, charged))
          await quotas.settle(chargeOf(job), charged ? 'confirm' : 'release');
      }
      await removeJobDir(config.dataDir, id);
    } finally {
      clearInterval(heartbeat);
      running.delete(id);
      deps.changed(id);
    }
  }

  return {
    runNext,
    /** Stops a job running in this process at once (a cancel already recorded). */
    interrupt(id: string) {
      running.get(id)?.abort();
    },
    /** Shutting down: running jobs end as failed, uncharged, and their files go. */
    async close() {
      closed = true;
      await Promise.all(
        [...running.keys()].map(async (id) => {
          const job = await jobs.find(id);
          if (job && (await jobs.end(id, 'failed', now(), INTERRUPTED)))
            await quotas.settle(chargeOf(job), 'release');
          running.get(id)?.abort();
        }),
      );
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type JobRunner = ReturnType<typeof jobRunner>;
