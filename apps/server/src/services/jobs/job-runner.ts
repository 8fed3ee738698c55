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
 * Runs jobs by id, in whichever process took them from the queue: claims the record, runs the
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

  function run(id: string): Promise<void> {
    const work = runOnce(id);
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  }

  async function runOnce(id: string): Promise<void> {
    const job = await jobs.claim(id, now());
    if (!job) return; // Cancelled while it waited.
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
        fields: tool.fields.parse(JSON.parse(job.fields)),
        workDir: dir,
        engines: deps.engines,
        config,
        // 100 means done, which only the finished record says.
        onProgress: (fraction) => (progress = Math.min(99, Math.floor(fraction * 100))),
        signal: abort.signal,
      });
      const bytes = (await stat(result.path)).size;
      const file = basename(result.path);
      const stored = { file, filename: result.filename, contentType: result.contentType, bytes };
      if (await jobs.finishDone(id, stored, now())) await quotas.settle(chargeOf(job), 'confirm');
      else await removeJobDir(config.dataDir, id);
    } catch (err) {
      if (!abort.signal.aborted) {
        const error = toJobError(tool?.mapError?.(err) ?? err, log, id);
        if (await jobs.end(id, 'failed', now(), error))
          await quotas.settle(chargeOf(job), 'release');
      }
      await removeJobDir(config.dataDir, id);
    } finally {
      clearInterval(heartbeat);
      running.delete(id);
      deps.changed(id);
    }
  }

  return {
    run,
    /** Stops a job running in this process at once (a cancel already recorded). */
    interrupt(id: string) {
      running.get(id)?.abort();
    },
    /** Shutting down: running jobs end as failed, uncharged, and their files go. */
    async close() {
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
