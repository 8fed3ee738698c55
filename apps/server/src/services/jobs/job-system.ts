import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { batchesRepository } from '../../db/repositories/batches-repository.js';
import { jobsRepository } from '../../db/repositories/jobs-repository.js';
import { batchService } from '../batches/batch-service.js';
import type { QuotaService } from '../quota-service.js';
import { bullmqQueue } from './bullmq-queue.js';
import { localQueue } from './job-queue.js';
import { jobRunner } from './job-runner.js';
import { jobService } from './job-service.js';

/**
 * Assembles the job machinery: the embedded queue by default, BullMQ when REDIS_URL is set.
 * A web process runs WORKERS jobs at once itself; `npm run worker` processes run the rest.
 */
export async function startJobSystem(
  { config, database, engines }: AppContext,
  quotas: QuotaService,
  log: FastifyBaseLogger,
) {
  const jobs = jobsRepository(database.db);
  const changes = new EventEmitter();
  // Every waiting request and event stream listens for its job's id.
  changes.setMaxListeners(0);
  const runner = jobRunner({
    jobs,
    quotas,
    config,
    engines,
    log,
    changed: (id) => changes.emit(id),
  });
  const { workers, queueName } = config.jobs;
  const queue = config.redisUrl
    ? bullmqQueue({
        redisUrl: config.redisUrl,
        name: queueName,
        concurrency: workers,
        run: runner.runNext,
      })
    : localQueue(workers, runner.runNext);
  const service = jobService({
    jobs,
    quotas,
    dataDir: config.dataDir,
    queueLimit: config.jobs.queueLimit,
    resultTtlMs: config.jobs.resultTtlMs,
    uploadTimeoutMs: config.uploadTimeouts.totalMs,
    queue,
    runner,
    changes,
  });

  // A batch is a job of jobs: its files run on this same queue and runner (issue #19).
  const batches = batchService({
    batches: batchesRepository(database.db),
    jobService: service,
    quotas,
    queue,
    dataDir: config.dataDir,
    resultTtlMs: config.jobs.resultTtlMs,
    uploadTimeoutMs: config.uploadTimeouts.totalMs,
  });

  // The embedded queue died with the last process, so its unfinished jobs can never run.
  await service.sweep({ everyUnfinished: queue.kind === 'local' });
  await batches.sweep({ everyUnfinished: queue.kind === 'local' });
  const sweepAll = async () => {
    await service.sweep();
    await batches.sweep();
  };
  const sweeper = setInterval(
    () => sweepAll().catch((err: unknown) => log.warn({ err }, 'job sweep failed')),
    Math.min(60_000, config.jobs.resultTtlMs),
  );
  sweeper.unref();

  return {
    service,
    batches,
    queueKind: queue.kind,
    async close() {
      clearInterval(sweeper);
      await runner.close();
      await queue.close();
    },
  };
}

export type JobSystem = Awaited<ReturnType<typeof startJobSystem>>;
