import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type LabelValues,
} from 'prom-client';
import type { Config } from '../config.js';
import type { Engines } from '../media/engines.js';
import { imageSlotCounters } from '../media/image/slots.js';
import { modelQueues } from '../media/model-worker.js';

/** Seconds, for requests: 5 ms to 30 s. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds, for jobs: a second to an hour. */
const JOB_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600];

export type JobOutcome = 'done' | 'failed' | 'cancelled';

/** Whether anything serves the metrics (METRICS_TOKEN or METRICS_PORT): otherwise they are off. */
export const metricsServed = ({ metrics }: Pick<Config, 'metrics'>) =>
  metrics.token !== undefined || metrics.port !== undefined;

/** Jobs of the queue now, by tool and state, as the database has them (every process alike). */
export type JobCounts = () => Promise<{ tool: string; status: string; count: number }[]>;

/**
 * What one process tells Prometheus (`GET /metrics`, docs/operations.md): requests, errors by
 * code, jobs, image slots and model queues, engines, quota charges and refusals, payments,
 * uploads, and prom-client's defaults (memory, CPU, event-loop delay). Each process has its own
 * registry; Prometheus adds the processes up.
 */
export function createMetrics(config: Pick<Config, 'metrics'>) {
  const registry = new Registry();
  // prom-client's own watch the garbage collector and sample the event loop all the time: only
  // when something serves the metrics (they cost the main thread tens of ms on a large upload).
  if (metricsServed(config)) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let engines: Engines | undefined;
  let jobCounts: JobCounts | undefined;

  const requests = new Histogram({
    name: 'refract_http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, and how long they took',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const errors = new Counter({
    name: 'refract_http_errors_total',
    help: 'Error answers by their code',
    labelNames: ['code', 'status'] as const,
    registers,
  });
  const jobWait = new Histogram({
    name: 'refract_job_wait_seconds',
    help: 'From a job queued to its first run starting',
    labelNames: ['lane', 'tool'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const jobRun = new Histogram({
    name: 'refract_job_run_seconds',
    help: 'How long a run of a job took, by how it ended',
    labelNames: ['lane', 'tool', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const jobsEnded = new Counter({
    name: 'refract_jobs_ended_total',
    help: 'Runs of jobs ended in this process: done, failed, or cancelled (stopped while running)',
    labelNames: ['tool', 'outcome'] as const,
    registers,
  });
  const waived = new Counter({
    name: 'refract_jobs_waived_total',
    help: 'Jobs made free because their waiting request was answered 503 (drain, database)',
    registers,
  });
  const reruns = new Counter({
    name: 'refract_job_reruns_total',
    help: 'Jobs run again after their worker stopped',
    labelNames: ['tool'] as const,
    registers,
  });
  const charges = new Counter({
    name: 'refract_quota_charges_total',
    help: 'Uses charged to quotas, by service',
    labelNames: ['service'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'refract_quota_refusals_total',
    help: 'Uses refused for an exhausted quota, by service',
    labelNames: ['service'] as const,
    registers,
  });
  const payments = new Counter({
    name: 'refract_payments_fulfilled_total',
    help: 'Payments that gave a plan, by provider',
    labelNames: ['provider'] as const,
    registers,
  });
  const uploadsInFlight = new Gauge({
    name: 'refract_uploads_in_flight',
    help: 'Upload requests being read now',
    registers,
  });
  const uploadBytes = new Counter({
    name: 'refract_upload_bytes_total',
    help: 'Bytes of files received, in forms or resumable uploads',
    labelNames: ['kind'] as const,
    registers,
  });
  new Gauge({
    name: 'refract_engine_available',
    help: '1 when the engine answers, 0 when it is missing (tools that need it are refused)',
    labelNames: ['engine'] as const,
    registers,
    collect() {
      this.reset();
      for (const [name, engine] of Object.entries(engines ?? {}))
        this.set({ engine: name }, engine.available ? 1 : 0);
    },
  });
  new Gauge({
    name: 'refract_image_slots',
    help: 'Image pipelines of this process running (busy) and queued for a slot (waiting)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const slots = imageSlotCounters();
      this.set({ state: 'busy' }, slots.active);
      this.set({ state: 'waiting' }, slots.waiting);
    },
  });
  new Gauge({
    name: 'refract_model_queue',
    help: "Inferences sent to a model's worker thread and not answered yet",
    labelNames: ['model'] as const,
    registers,
    collect() {
      for (const { name, queued } of modelQueues()) this.set({ model: name }, queued);
    },
  });
  new Gauge({
    name: 'refract_jobs',
    help: 'Jobs queued and running now, by tool (the whole queue: every process reports the same)',
    labelNames: ['state', 'tool'] as const,
    registers,
    async collect() {
      this.reset();
      for (const { tool, status, count } of (await jobCounts?.()) ?? [])
        this.set({ state: status, tool }, count);
    },
  });

  return {
    registry,
    /** The engines to report (found at start, probed again while missing). */
    watchEngines(found: Engines) {
      engines = found;
    },
    watchJobs(counts: JobCounts) {
      jobCounts = counts;
    },
    request(labels: LabelValues<'method' | 'route' | 'status'>, seconds: number) {
      requests.observe(labels, seconds);
    },
    error(code: string, status: number) {
      errors.inc({ code, status });
    },
    jobStarted(lane: string, tool: string, waitedSeconds: number | undefined) {
      if (waitedSeconds === undefined) reruns.inc({ tool });
      else jobWait.observe({ lane, tool }, waitedSeconds);
    },
    jobEnded(lane: string, tool: string, outcome: JobOutcome, ranSeconds?: number) {
      jobsEnded.inc({ tool, outcome });
      if (ranSeconds !== undefined) jobRun.observe({ lane, tool, outcome }, ranSeconds);
    },
    jobWaived() {
      waived.inc();
    },
    charged(service: string, count: number) {
      charges.inc({ service }, count);
    },
    refused(service: string) {
      refusals.inc({ service });
    },
    paymentFulfilled(provider: string) {
      payments.inc({ provider });
    },
    /** Counts an upload request while it is read; `bytes` once known. */
    async receiving<T>(
      kind: 'form' | 'resumable',
      read: () => Promise<T>,
      bytes: (value: T) => number,
    ) {
      uploadsInFlight.inc();
      try {
        const value = await read();
        uploadBytes.inc({ kind }, bytes(value));
        return value;
      } finally {
        uploadsInFlight.dec();
      }
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
