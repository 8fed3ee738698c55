import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  jobSchema,
  recentJobsQuerySchema,
  recentJobsSchema,
  type RecentJob,
} from '@refract/contracts';
import { z } from 'zod';
import type { JobRow } from '../../db/repositories/jobs-repository.js';
import { AppError } from '../../lib/app-error.js';
import { streamEvents } from '../../lib/server-sent-events.js';
import {
  describeJob,
  hasEnded,
  jobError,
  type JobService,
} from '../../services/jobs/job-service.js';
import { downloadHeaders } from '../tools/metered.js';

const params = z.object({ id: z.string().max(64) });

/** A page's end as an opaque cursor: the last job's creation time and id. */
const encodeCursor = (job: JobRow) =>
  Buffer.from(JSON.stringify([job.created_at, job.id])).toString('base64url');

function decodeCursor(cursor: string) {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof createdAt === 'string' && typeof id === 'string') return { createdAt, id };
  } catch {
    // answered below
  }
  throw new AppError(400, 'validation_failed', 'Invalid cursor: pass nextCursor as it was given');
}

type BatchCounts = NonNullable<RecentJob['batch']>;

/** A batch's state from its files': running while any is unfinished, failed when all failed. */
function batchStatus(counts: Omit<BatchCounts, 'id'>): RecentJob['status'] {
  if (counts.done + counts.failed < counts.total) return 'running';
  return counts.failed === counts.total ? 'failed' : 'done';
}

function describeRecent(job: JobRow, counts?: Omit<BatchCounts, 'id'>): RecentJob {
  const listed = {
    ...describeJob(job),
    service: job.service,
    tool: job.tool,
    inputName: job.input_name,
    createdAt: job.created_at,
    finishedAt: job.finished_at,
    resultUrl: job.status === 'done' && job.result_file ? `/api/jobs/${job.id}/result` : null,
    batch: null,
  };
  if (!job.batch_id || !counts) return listed;
  const status = batchStatus(counts);
  return {
    ...listed,
    status,
    progress: Math.round(((counts.done + counts.failed) / Math.max(counts.total, 1)) * 100),
    error: undefined,
    resultUrl: counts.done > 0 ? `/api/batches/${job.batch_id}/zip` : null,
    batch: { id: job.batch_id, ...counts },
  };
}

/** The async side of audio and video: a job's state, its live progress, its file, its cancel. */
export const jobRoutes =
  (jobs: JobService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['Jobs'];

    // Nothing paid for is out of reach: a result whose waiting request was cut off is here.
    app.get(
      '/api/jobs',
      {
        config: { access: 'userOrKey', errors: ['validation_failed'] },
        schema: {
          summary:
            'Your recent jobs (audio, video and batches), newest first; a batch is one entry',
          tags,
          querystring: recentJobsQuerySchema,
          response: { 200: recentJobsSchema },
        },
      },
      async (request) => {
        const { limit, cursor } = request.query;
        const before = cursor === undefined ? undefined : decodeCursor(cursor);
        // One more than asked tells whether an older page exists.
        const { rows, batches } = await jobs.recent(request.user!, limit + 1, before);
        const page = rows.slice(0, limit);
        return {
          jobs: page.map((job) => describeRecent(job, batches.get(job.batch_id ?? ''))),
          nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null,
        };
      },
    );

    app.get(
      '/api/jobs/:id',
      {
        config: { access: 'userOrKey', errors: ['not_found'] },
        schema: { summary: "A job's state", tags, params, response: { 200: jobSchema } },
      },
      async (request) => describeJob(await jobs.owned(request.user!, request.params.id)),
    );

    // Server-Sent Events: a `progress` event on every change, then one `end` event.
    const events = {
      config: {
        access: 'userOrKey',
        errors: ['not_found'],
        produces: {
          contentTypes: ['text/event-stream'],
          description:
            'Server-Sent Events: `progress` (a job) on every change, then one `end`; or a last `retry` (reason, retryAfterMs) when the stream must stop first',
        },
      },
      schema: { summary: "A job's progress, live", tags, params },
    } as const;
    app.get('/api/jobs/:id/events', events, async (request, reply) => {
      const job = await jobs.owned(request.user!, request.params.id);
      await streamEvents(request, reply, (send, signal) =>
        jobs.watch(job.id, (row) => send(describeJob(row), hasEnded(row)), signal),
      );
    });

    const result = {
      config: {
        access: 'userOrKey',
        errors: [
          'not_found',
          'job_not_finished',
          'job_cancelled',
          'processing_failed',
          'result_expired',
          'storage_unavailable',
        ],
        produces: {
          contentTypes: ['image/*', 'audio/*', 'video/*'],
          description: 'The finished file, as an attachment',
        },
      },
      schema: { summary: "A finished job's file", tags, params },
    } as const;
    app.get('/api/jobs/:id/result', result, async (request, reply) => {
      const job = await jobs.owned(request.user!, request.params.id);
      if (job.status === 'failed' || job.status === 'cancelled') throw jobError(job);
      if (job.status !== 'done')
        throw new AppError(409, 'job_not_finished', 'This job has not finished yet');
      const file = await jobs.openResult(job);
      return reply
        .headers(downloadHeaders(job.result_content_type!, job.result_filename!))
        .send(file);
    });

    app.delete(
      '/api/jobs/:id',
      {
        config: { access: 'userOrKey', errors: ['not_found'] },
        schema: { summary: 'Cancel a job', tags, params, response: { 200: jobSchema } },
      },
      // A job that has ended (done included) is left as it is: the answer is its state.
      async (request) => {
        const job = await jobs.owned(request.user!, request.params.id);
        await jobs.cancel(job);
        return describeJob(await jobs.owned(request.user!, job.id));
      },
    );
  };
