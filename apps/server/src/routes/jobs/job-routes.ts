import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { jobSchema } from '@refract/contracts';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import {
  describeJob,
  hasEnded,
  jobError,
  type JobService,
} from '../../services/jobs/job-service.js';
import { downloadHeaders } from '../tools/metered.js';

const params = z.object({ id: z.string().max(64) });

/** The async side of audio and video: a job's state, its live progress, its file, its cancel. */
export const jobRoutes =
  (jobs: JobService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['Jobs'];

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
          description: 'Server-Sent Events: `progress` (a job) on every change, then one `end`',
        },
      },
      schema: { summary: "A job's progress, live", tags, params },
    } as const;
    app.get('/api/jobs/:id/events', events, async (request, reply) => {
      const job = await jobs.owned(request.user!, request.params.id);
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      const closed = new AbortController();
      reply.raw.once('close', () => closed.abort());
      try {
        await jobs.watch(
          job.id,
          (row) => {
            const event = hasEnded(row) ? 'end' : 'progress';
            reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(describeJob(row))}\n\n`);
          },
          closed.signal,
        );
      } catch (err) {
        request.log.error({ err }, 'job events stopped');
      } finally {
        reply.raw.end();
      }
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
        ],
        produces: {
          contentTypes: ['audio/*', 'video/*'],
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
