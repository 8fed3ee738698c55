import { stat } from 'node:fs/promises';
import { toolById } from '@refract/contracts';
import { basename, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { JobError, JobRow, JobsRepository } from '../../db/repositories/jobs-repository.js';
import { AppError } from '../../lib/app-error.js';
import type { JobOutcome, Metrics } from '../../metrics/metrics.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import type { Engines } from '../../media/engines.js';
import { TOOL_REGISTRY } from '../../tools/registry.js';
import { storageUnavailable } from '../health/volume-marker.js';
import {
  extraFilesIn,
  jobDir,
  keepOnlyResult,
  removeJobDir,
  removeRunOutputs,
} from './job-files.js';

/**
 * The ids of the tools of a lane: image work (batch files, upscales), or audio and video. The
 * lane goes by what the tool works on, not by how its route answers.
 */
const toolsOf = (lane: 'image' | 'media') =>
  TOOL_REGISTRY.filter((t) => (toolById(t.id).category === 'image') === (lane === 'image')).map(
    (t) => t.id,
  );

const IMAGE_LANE_TOOLS: readonly string[] = toolsOf('image');

/** The lane of a tool's jobs, for /metrics. */
const laneOf = (toolId: string) => (IMAGE_LANE_TOOLS.includes(toolId) ? 'image' : 'media');

/** Tools of which each user runs one job at a time (ToolDefinition.oneAtATime). */
const ONE_AT_A_TIME = TOOL_REGISTRY.filter((t) => t.oneAtATime).map((t) => t.id);

/** Stopped at the time limit, the job held a worker that long: it is charged (docs/api.md). */
const CHARGED_WHEN_STOPPED = new Set(['processing_timeout']);

/** A finished run retries recording its end this long while the database is down, this often. */
const RECORD_END_MS = 5 * 60 * 1000;
const RETRY_END_MS = 1000;

/** How often a running job records its progress and learns whether it was cancelled. */
export const HEARTBEAT_MS = 500;

export const INTERRUPTED: JobError = {
  status: 503,
  code: 'processing_failed',
  message: 'The server stopped while this job ran. It was not charged; please try again.',
};

/** A job whose upload this worker cannot see: DATA_DIR not shared (docs/operations.md). Uncharged. */
const NO_INPUT = storageUnavailable(
  'The uploaded file was not found on the shared storage. Nothing was charged; please try again.',
);

const now = () => new Date().toISOString();

/** Our error for the job record: a tool's own AppError, or a generic failure (logged in full). */
function toJobError(err: unknown, log: FastifyBaseLogger): JobError {
  if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message };
  log.error({ err }, 'job failed');
  return { status: 500, code: 'processing_failed', message: 'Processing failed' };
}

/**
 * Runs jobs, in whichever process a queue entry woke: claims the next record fairly, runs the
 * tool with progress and cancellation, then settles the quota charge once, by whoever moved
 * the record to its end (the runner, a cancel, or a sweep).
 */
export function jobRunner(deps: {
  jobs: JobsRepository;
  config: Config;
  engines: Engines;
  metrics: Pick<Metrics, 'jobStarted' | 'jobEnded'>;
  log: FastifyBaseLogger;
  /** Told when a job this process runs has moved on, so local watchers need not wait a poll. */
  changed(id: string): void;
}) {
  const { jobs, config, log } = deps;
  const running = new Map<string, { abort: AbortController; token: string }>();
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;
  // Two lanes, each with its own bound: image work fills every core, while ffmpeg's
  // jobs each use several threads, so fewer of them run at once.
  const lanes = {
    image: { limit: config.jobs.imageWorkers, active: 0, tools: toolsOf('image') },
    media: { limit: config.jobs.workers, active: 0, tools: toolsOf('media') },
  };
  let wakeUps = 0;

  /**
   * Runs the next job, chosen fairly from the database (jobs-repository `claimNext`), not the
   * one whose id woke us, then the next, while one of its lanes has room and a job. A wake-up
   * that comes while its job's lane is full is spent on nothing; that lane's running loop
   * takes the job when its own ends, so every job is run. Resolves true when it found nothing
   * to run while a lane was full: the wake-up may be for a job another process could run now.
   */
  function runNext(): Promise<boolean> {
    wakeUps += 1;
    if (closed) return Promise.resolve(false);
    const work = claimAndRun();
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  }

  async function claimAndRun(): Promise<boolean> {
    for (;;) {
      if (closed) return false;
      const seen = wakeUps;
      const claimed = await claimInFreeLane();
      if (claimed) {
        try {
          await runClaimed(claimed.job);
        } finally {
          claimed.lane.active -= 1;
        }
      } else if (wakeUps === seen) return Object.values(lanes).some((l) => l.active >= l.limit);
      // else: a wake-up came while we looked, and its job may have missed our query; again.
    }
  }

  /** The next job of a lane with room; the lane's place is held while the database is asked. */
  async function claimInFreeLane() {
    for (const lane of Object.values(lanes)) {
      if (lane.active >= lane.limit || closed) continue;
      lane.active += 1;
      const job = await jobs.claimNext(now(), lane.tools, ONE_AT_A_TIME).catch((err: unknown) => {
        lane.active -= 1;
        throw err;
      });
      if (job) return { job, lane };
      lane.active -= 1;
    }
    return undefined;
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

  /**
   * After a run stopped without ending its job itself: the files go only if the job has ended
   * (cancelled elsewhere); a job re-queued meanwhile keeps its upload for the next attempt.
   */
  async function tidyAfter(id: string) {
    const current = await jobs.find(id);
    if (!current || ['done', 'failed', 'cancelled'].includes(current.status))
      await removeJobDir(config.dataDir, id);
  }

  /**
   * A run that ends while the database cannot serve keeps trying to record its end (its
   * heartbeat goes on meanwhile, so no other process takes the job), rather than leave the
   * work to be done again; up to RECORD_END_MS, or until this process shuts down.
   */
  async function whileDatabaseDown<T>(work: () => Promise<T>): Promise<T> {
    const startedAt = Date.now();
    for (;;) {
      try {
        return await work();
      } catch (err) {
        if (!isDatabaseUnavailable(err) || closed || Date.now() - startedAt > RECORD_END_MS)
          throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRY_END_MS));
      }
    }
  }

  async function runClaimed(job: JobRow): Promise<void> {
    const id = job.id;
    const token = job.runner!;
    const tool = TOOL_REGISTRY.find((t) => t.id === job.tool);
    const dir = jobDir(config.dataDir, id);
    const abort = new AbortController();
    running.set(id, { abort, token });
    // Every line about the job names it and the request that uploaded it, in any process.
    const jobLog = log.child({ jobId: id, requestId: job.request_id ?? undefined });
    const lane = laneOf(job.tool);
    const startedAt = Date.now();
    const waited = (startedAt - Date.parse(job.created_at)) / 1000;
    deps.metrics.jobStarted(lane, job.tool, job.attempts > 1 ? undefined : waited);
    jobLog.info({ tool: job.tool, attempt: job.attempts }, 'job started');
    const ended = (outcome: JobOutcome) => {
      deps.metrics.jobEnded(lane, job.tool, outcome, (Date.now() - startedAt) / 1000);
      jobLog.info({ tool: job.tool, outcome }, 'job ended');
    };
    let progress = 0;
    let heartbeatFailing = false;
    let beating = false;
    const heartbeat = setInterval(() => {
      // A database that does not answer must not pile up heartbeats; the next one renews.
      if (beating) return;
      beating = true;
      jobs
        .heartbeat(id, token, progress, now())
        .then((alive) => {
          heartbeatFailing = false;
          if (alive) deps.changed(id);
          else abort.abort();
        })
        .catch((err: unknown) => {
          // Once per outage, not every half second.
          if (!heartbeatFailing)
            jobLog.warn(
              { jobId: id },
              `job heartbeat failed (${(err as Error).message}); the job runs on and renews once the database answers`,
            );
          heartbeatFailing = true;
        })
        .finally(() => (beating = false));
    }, HEARTBEAT_MS);
    try {
      // A job run before (its worker died, or handed it back) starts from its upload alone.
      await removeRunOutputs(config.dataDir, id);
      if (!tool) throw new Error(`No tool ${job.tool}`);
      const input = join(dir, 'input');
      await stat(input).catch((err: NodeJS.ErrnoException) => {
        // The upload was written to another volume than this worker's (or the share is gone).
        if (err.code === 'ENOENT') throw NO_INPUT;
        throw err;
      });
      const result = await tool.run({
        input,
        inputBytes: job.input_bytes,
        inputName: job.input_name ?? undefined,
        fields: tool.fields.parse(JSON.parse(job.fields)),
        extraFiles: await extraFilesIn(dir, tool.extraFiles),
        workDir: dir,
        engines: deps.engines,
        config,
        // 100 means done, which only the finished record says.
        onProgress: (fraction) => (progress = Math.min(99, Math.floor(fraction * 100))),
        signal: abort.signal,
        owner: { userId: job.user_id, waits: true },
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
      const done = await whileDatabaseDown(async () => {
        await keepWithinAllowance(job.user_id, bytes);
        return jobs.finishDone(id, token, stored, now());
      });
      if (done) {
        ended('done');
        await keepOnlyResult(config.dataDir, id, file);
        await keepWithinAllowance(job.user_id, 0);
      } else await tidyAfter(id);
    } catch (err) {
      if (abort.signal.aborted) {
        ended('cancelled');
        await tidyAfter(id);
      } else {
        ended('failed');
        const error = toJobError(tool?.mapError?.(err) ?? err, jobLog);
        const charged = CHARGED_WHEN_STOPPED.has(error.code);
        await whileDatabaseDown(() => jobs.end(id, 'failed', now(), error, charged, token));
        await tidyAfter(id);
      }
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
      running.get(id)?.abort.abort();
    },
    /** Whether nothing runs or is being claimed here now. */
    isIdle: () => running.size === 0 && inFlight.size === 0,
    /** Takes no more jobs (those running go on until `close`). */
    stopTaking() {
      closed = true;
    },
    /**
     * Shutting down, with jobs still running: each is stopped and either handed back to the
     * queue for another worker (`handBack`: its ids are returned, to be woken again) or, with
     * the embedded queue that dies with this process, ended as failed, uncharged.
     */
    async close(options: { handBack: boolean }): Promise<string[]> {
      closed = true;
      const handedBack: string[] = [];
      const runs = [...running];
      if (!options.handBack)
        await Promise.all(
          runs.map(([id, run]) => jobs.end(id, 'failed', now(), INTERRUPTED, false, run.token)),
        );
      // Stopped first, so nothing of this run is still writing when another worker takes it.
      for (const [, run] of runs) run.abort.abort();
      await Promise.allSettled([...inFlight]);
      if (options.handBack)
        for (const [id, run] of runs)
          if (await jobs.requeue(id, now(), { runner: run.token })) handedBack.push(id);
      return handedBack;
    },
  };
}

export type JobRunner = ReturnType<typeof jobRunner>;
