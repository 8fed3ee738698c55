import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BATCH_FILES_HEADER,
  batchCreatedSchema,
  batchHasEnded,
  batchQuerySchema,
  batchSchema,
  toolById,
} from '@refract/contracts';
import type { AppContext } from '../../app-context.js';
import { AppError } from '../../lib/app-error.js';
import { FORM_OVERHEAD_BYTES } from '../../plugins/uploads.js';
import { streamEvents } from '../../lib/server-sent-events.js';
import type { BatchService } from '../../services/batches/batch-service.js';
import type { Services } from '../../services/services.js';
import { TOOL_REGISTRY } from '../../tools/registry.js';
import { downloadHeaders } from '../tools/metered.js';
import { receiveBatch, tooManyBytes, tooManyFiles, type BatchLimits } from './receive-batch.js';

const params = z.object({ id: z.string().max(64) });
const fileParams = params.extend({ index: z.coerce.number().int().min(0).max(100_000) });

/** The batch path of a tool: /api/convert → /api/batch/convert. */
export const batchPath = (toolPath: string) => toolPath.replace(/^\/api\//, '/api/batch/');

/**
 * Batches: many files through one tool in one request, each file its own job on
 * the usual queue; then the batch's state, live progress, each result, one zip, and cancel.
 */
export const batchRoutes =
  (context: AppContext, services: Services, batches: BatchService): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['Batches'];

    for (const tool of TOOL_REGISTRY) {
      app.post(
        batchPath(tool.path),
        {
          // The plan's own byte limit is checked in the handler, before and while reading.
          bodyLimit: Number.MAX_SAFE_INTEGER,
          config: {
            access: 'userOrKey',
            errors: [
              'batch_too_large',
              'storage_unavailable',
              'no_file',
              'validation_failed',
              'unknown_field',
              'payload_too_large',
              'unsupported_media_type',
              'unsupported_output_format',
              'engine_unavailable',
              'too_many_requests',
              'queue_unavailable',
            ],
          },
          schema: {
            summary: `Batch: ${tool.summary}`,
            description:
              'Multipart: the tool\'s fields first, then the files, each in a `file` part. Every file becomes a job charged one use; files beyond the quota are recorded as failed with `quota_exceeded`, unprocessed. Optional `perFile` (with the fields): JSON `{"<file index from 0>": {"<field>": value}}`, a file\'s own settings over the shared ones (its crop frame, blur areas, watermark position), each checked with the tool\'s rules before any file is taken.',
            tags,
            querystring: batchQuerySchema,
            response: { 202: batchCreatedSchema },
          },
        },
        async (request, reply) => {
          const user = request.user!;
          const { plan } = await services.quotas.entitlement(user);
          const limits: BatchLimits = {
            files: plan.batch_max_files,
            bytes: Number(plan.batch_max_bytes),
            fileBytes: await services.quotas.fileLimit(user, toolById(tool.id)),
          };
          // What the client declares is refused before a byte of the body is read.
          const declared = request.query.files ?? Number(request.headers[BATCH_FILES_HEADER]);
          if (declared > limits.files) throw tooManyFiles(limits);
          if (Number(request.headers['content-length']) > limits.bytes + FORM_OVERHEAD_BYTES)
            throw tooManyBytes(limits);
          if (!request.isMultipart())
            throw new AppError(
              415,
              'unsupported_media_type',
              'Send the files as multipart/form-data',
            );
          const batch = await batches.open(user, tool.id);
          let started = false;
          try {
            await receiveBatch({ request, user, batch, tool, limits, batches, ...context });
            started = true;
          } finally {
            // A refused upload is refused whole: nothing of it ran or was charged.
            if (!started) await batches.cancel(batch);
          }
          return reply.status(202).send({ batchId: batch.id });
        },
      );
    }

    app.get(
      '/api/batches/:id',
      {
        config: { access: 'userOrKey', errors: ['not_found'] },
        schema: {
          summary: "A batch's state, file by file",
          tags,
          params,
          response: { 200: batchSchema },
        },
      },
      async (request) => batches.describe(await batches.owned(request.user!, request.params.id)),
    );

    app.get(
      '/api/batches/:id/events',
      {
        config: {
          access: 'userOrKey',
          errors: ['not_found'],
          produces: {
            contentTypes: ['text/event-stream'],
            description:
              'Server-Sent Events: `progress` (the batch) on every change, then one `end`; or a last `retry` (reason, retryAfterMs) when the stream must stop first',
          },
        },
        schema: { summary: "A batch's progress, live", tags, params },
      },
      async (request, reply) => {
        const batch = await batches.owned(request.user!, request.params.id);
        await streamEvents(request, reply, (send, signal) =>
          batches.watch(batch, (state) => send(state, batchHasEnded(state)), signal),
        );
      },
    );

    app.get(
      '/api/batches/:id/files/:index',
      {
        config: {
          access: 'userOrKey',
          errors: ['not_found', 'job_not_finished', 'result_expired', 'storage_unavailable'],
          produces: {
            contentTypes: ['image/*', 'audio/*', 'video/*'],
            description: "One file's result, named after the uploaded file",
          },
        },
        schema: { summary: "One file's result", tags, params: fileParams },
      },
      async (request, reply) => {
        const batch = await batches.owned(request.user!, request.params.id);
        const file = await batches.openFile(batch, request.params.index);
        return reply.headers(downloadHeaders(file.contentType, file.filename)).send(file.stream);
      },
    );

    app.get(
      '/api/batches/:id/zip',
      {
        config: {
          access: 'userOrKey',
          errors: ['not_found', 'result_expired', 'storage_unavailable'],
          produces: {
            contentTypes: ['application/zip'],
            description: 'Every result so far, streamed as one zip as it is written',
          },
        },
        schema: { summary: "A batch's results as one zip", tags, params },
      },
      async (request, reply) => {
        const batch = await batches.owned(request.user!, request.params.id);
        const zip = await batches.zip(batch);
        return reply
          .headers(downloadHeaders('application/zip', `${batch.tool}-batch.zip`))
          .send(zip);
      },
    );

    app.delete(
      '/api/batches/:id',
      {
        config: { access: 'userOrKey', errors: ['not_found'] },
        schema: {
          summary: 'Cancel a batch (files not yet done are given back)',
          tags,
          params,
          response: { 200: batchSchema },
        },
      },
      async (request) => {
        await batches.cancel(await batches.owned(request.user!, request.params.id));
        return batches.describe(await batches.owned(request.user!, request.params.id));
      },
    );
  };
