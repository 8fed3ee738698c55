import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { batchesRepository } from '../../db/repositories/batches-repository.js';
import { jobsRepository } from '../../db/repositories/jobs-repository.js';
import { settingsRepository } from '../../db/repositories/settings-repository.js';
import { recordVolumeMarker, sharedVolumeGuard } from '../health/volume-marker.js';
import { batchService } from '../batches/batch-service.js';
import type { QuotaService } from '../quota-service.js';
import { localQueue } from './job-queue.js';
import { jobRunner } from './job-runner.js';
import { owedWrites } from '../../lib/owed-writes.js';
import { sweepLeftovers } from './leftovers.js';
import { uploadStore } from '../uploads/upload-store.js';
import { RUNNER_CHECK_MS, jobService } from './job-service.js';

/** How often workers look for queued jobs whose wake-up Redis lost (one worker at a time). */
const RECONCILE_MS = 15_000;
/** How soon a wake-up handed back by a worker whose lane is full can be taken again. */
const HAND_BACK_MS = 1_000;

/**
 * Assembles the job machinery: the embedded queue by default, BullMQ when REDIS_URL is set.
 * A web process runs WORKERS audio/video and IMAGE_WORKERS image jobs at once itself;
 * `npm run worker` processes run the rest.
 */
export async function startJobSystem(
  { config, database, engines, metrics }: AppContext,
  quotas: QuotaService,
  log: FastifyBaseLogger,
) {
  const settings = settingsRepository(database.db);
  await recordVolumeMarker(config.dataDir, settings);
  const jobs = jobsRepository(database.db);
  const changes = new EventEmitter();
  const owed = owedWrites(log);
  // Every waiting request and event stream listens for its job's id.
  changes.setMaxListeners(0);
  metrics.watchJobs(() => jobs.countUnfinished());
  const runner = jobRunner({
    jobs,
    config,
    engines,
    metrics,
    log,
    changed: (id) => changes.emit(id),
  });
  const { workers, imageWorkers, queueName } = config.jobs;
  // Wake-ups taken at once: one per place in the runner's two lanes. WORKERS=0 runs none here.
  const concurrency = workers > 0 ? workers + imageWorkers : 0;
  // BullMQ and its Redis client are loaded only when used: memory a one-machine server never needs.
  const redis = config.redisUrl
    ? (await import('./bullmq-queue.js')).bullmqQueue({
        redisUrl: config.redisUrl,
        name: queueName,
        concurrency,
        run: async (jobId) => {
          // A wake-up taken here while its job's lane is full goes back to the queue, a second
          // later, for as long as the job waits: another worker with room takes it.
          if (!(await runner.runNext())) return;
          if ((await jobs.find(jobId))?.status === 'queued')
            await redis?.add(jobId, { again: true, delayMs: HAND_BACK_MS });
        },
        log,
      })
    : undefined;
  const queue = redis ?? localQueue(concurrency, runner.runNext);
  const service = jobService({
    jobs,
    dataDir: config.dataDir,
    volume: sharedVolumeGuard(config.dataDir, settings),
    queueLimit: config.jobs.queueLimit,
    resultTtlMs: config.jobs.resultTtlMs,
    queue,
    runner,
    changes,
    log,
    owed,
    metrics,
  });

  // A batch is a job of jobs: its files run on this same queue and runner.
  const batches = batchService({
    batches: batchesRepository(database.db),
    jobService: service,
    quotas,
    queue,
    dataDir: config.dataDir,
    resultTtlMs: config.jobs.resultTtlMs,
    uploadTimeoutMs: config.uploadTimeouts.totalMs,
    log,
  });

  // The embedded queue died with the last process, so its unfinished jobs can never run.
  const leftovers = async () => {
    const removed = await sweepLeftovers({
      dataDir: config.dataDir,
      graceMs: config.leftoverGraceMs,
      hasJob: async (id) => (await jobs.find(id)) !== undefined,
    });
    if (removed.length > 0) log.info({ removed }, 'removed files left by a stopped process');
  };
  const uploads = uploadStore(config.dataDir);
  const idleUploads = async () => {
    const removed = await uploads.sweep(config.uploadTimeouts.totalMs);
    if (removed.length > 0) log.info({ removed }, 'removed uploads silent for UPLOAD_TIMEOUT');
  };
  await service.sweep({ everyUnfinished: queue.kind === 'local' });
  await batches.sweep({ everyUnfinished: queue.kind === 'local' });
  await service.checkRunners();
  await leftovers();
  const every = (ms: number, what: string, work: () => Promise<void>) => {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return; // a slow database must not pile up rounds
      busy = true;
      work()
        .catch((err: unknown) => log.warn(`${what} failed: ${(err as Error).message}`))
        .finally(() => (busy = false));
    }, ms);
    timer.unref();
    return timer;
  };
  const timers = [
    every(Math.min(60_000, config.jobs.resultTtlMs), 'job sweep', async () => {
      await service.sweep();
      await batches.sweep();
    }),
    every(RUNNER_CHECK_MS, 'job runner check', () => service.checkRunners()),
    every(Math.min(60_000, config.leftoverGraceMs), 'leftover sweep', leftovers),
    every(Math.min(60_000, config.uploadTimeouts.totalMs / 2), 'upload sweep', idleUploads),
  ];
  if (redis && workers > 0)
    timers.push(
      every(RECONCILE_MS, 'job queue reconcile', () =>
        redis.exclusively('reconcile', RECONCILE_MS, () => service.reconcile(redis.missing)),
      ),
    );

  return {
    service,
    batches,
    uploads,
    queueKind: queue.kind,
    ping: () => queue.ping(),
    /**
     * Stops taking jobs and lets running ones finish within `graceMs`; past it, jobs on Redis
     * are handed back for another worker (re-queued, uncharged so far), and the embedded
     * queue's jobs, which die with this process, end as failed, uncharged.
     */
    async close(graceMs = 0) {
      for (const timer of timers) clearInterval(timer);
      runner.stopTaking();
      service.beginShutdown();
      await service.releaseReceiving().catch((err: unknown) => {
        log.warn(`releasing uploads cut by the shutdown failed: ${(err as Error).message}`);
      });
      // Nothing running: nothing to wait for (a dead Redis would hold the close to its end).
      await queue.drain(runner.isIdle() ? 0 : graceMs);
      const handedBack = await runner.close({ handBack: queue.kind === 'bullmq' });
      for (const id of handedBack) {
        log.info({ jobId: id }, 'job handed back to the queue at shutdown');
        // Redis may be the reason for the shutdown: the reconciler wakes these later if so.
        await queue.add(id, { again: true }).catch(() => undefined);
      }
      await queue.close();
      await service.waiveOpenWaits();
      await owed.flush();
    },
  };
}

export type JobSystem = Awaited<ReturnType<typeof startJobSystem>>;
