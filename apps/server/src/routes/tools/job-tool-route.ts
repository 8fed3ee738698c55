import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { AppError } from '../../lib/app-error.js';
import { givenBack, quotaHeaders } from '../../lib/quota-headers.js';
import { join } from 'node:path';
import { toolById } from '@refract/contracts';
import { FORM_OVERHEAD_BYTES, receiveUpload } from '../../plugins/uploads.js';
import { fileCeilings, fileTooLarge } from '../../services/file-limits.js';
import { holdRoom } from '../../services/uploads/disk-room.js';
import type { UploadStore } from '../../services/uploads/upload-store.js';
import type { Services } from '../../services/services.js';
import { jobError, type JobService } from '../../services/jobs/job-service.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import { downloadHeaders } from './metered.js';
import { parseToolFields, withApplied } from './tool-fields.js';
import { toolDocs } from './tool-docs.js';

const jobAcceptedSchema = z.object({ jobId: z.string() });

const querySchema = z.object({
  async: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .describe('1 or true: answer 202 {jobId} at once and follow the job at /api/jobs/{jobId}'),
});

/**
 * An audio or video tool's POST route. The upload is checked and probed, a use is held on the
 * quota, and the work is queued as a job. `?async=1` answers 202 {jobId} at once (then see
 * /api/jobs/:id); otherwise the request waits and answers with the file. A client that goes
 * away cancels its job only while that costs nothing (job-service `abandon`); a wait answered
 * 503 (the database could not serve it, or the process drained) makes the job free (`waive`).
 */
export function registerJobTool(
  app: FastifyInstance,
  tool: ToolDefinition,
  context: AppContext,
  services: Services,
  jobs: JobService,
  uploads: UploadStore,
) {
  const docs = toolDocs(tool);
  const entry = toolById(tool.id);
  // Audio and video may come as a finished resumable upload (its id in `upload`) instead.
  const resumable = entry.category !== 'image';
  app.post(
    tool.path,
    {
      bodyLimit: (tool.maxBytes ?? fileCeilings(context.config).media) + FORM_OVERHEAD_BYTES,
      config: docs.config,
      schema: { ...docs.schema, querystring: querySchema, response: { 202: jobAcceptedSchema } },
    },
    async (request, reply) => {
      // Checked by the route's querystring schema.
      const query = request.query as z.infer<typeof querySchema>;
      const user = request.user!;
      const maxBytes = await services.quotas.fileLimit(user, entry);
      // A file larger than the plan takes, and one the disk has no room for, are refused
      // before a byte is read, and so is the job's slot.
      const declared = Number(request.headers['content-length']) || 0;
      if (declared > maxBytes + FORM_OVERHEAD_BYTES) throw fileTooLarge(maxBytes);
      const { stillToCome } = await uploads.totals();
      const room = await holdRoom(context.config.dataDir, declared, stillToCome);
      let opened;
      try {
        opened = await jobs.open(user, tool.id, request.id);
      } catch (err) {
        room.release();
        throw err;
      }
      const { id, dir } = opened;
      let queued = false;
      let taken: string | undefined;
      let status;
      try {
        const upload = await context.metrics
          .receiving(
            'form',
            () => receiveUpload(request, tool.fileField, maxBytes, dir, [], { resumable }),
            (received) => received.bytes,
          )
          .finally(() => room.release());
        if (upload.uploadId) {
          const input = join(dir, 'input');
          const stored = await uploads.take(upload.uploadId, user.id, input, maxBytes);
          taken = upload.uploadId;
          Object.assign(upload, { path: input, bytes: stored.size, filename: stored.filename });
        }
        const fields = parseToolFields(tool, upload.fields);
        await tool.precheck?.(fields, context.engines, context.config);
        // A resumable upload was not scanned on its way in: the probe reads it once.
        const scanned = taken ? undefined : upload;
        const inspected = await tool.inspect?.(upload.path!, fields, context.config, scanned);
        const service = tool.service(fields);
        const reservation = await services.quotas.reserve(user, service, 1);
        await jobs.submit({
          id,
          fields: withApplied(fields, inspected),
          service,
          reservation,
          inputBytes: upload.bytes,
          inputName: upload.filename,
        });
        queued = true;
        status = reservation.status;
      } finally {
        if (taken && queued) await uploads.settle(taken);
        if (taken && !queued) await uploads.putBack(taken, join(dir, 'input'));
        if (!queued) await jobs.discard(id);
      }

      if (query.async === '1' || query.async === 'true')
        return reply.status(202).headers(quotaHeaders(status)).send({ jobId: id });

      // Closed before the job ended: the client went away, or the drain answered 503.
      const closed = new AbortController();
      reply.raw.once('close', () => closed.abort());
      const job = await jobs.waitFor(id, closed.signal);
      if (!job) {
        // Told 503 by the drain: the job costs nothing. Gone of its own accord: see `abandon`.
        if (reply.sent) await jobs.waive(id);
        else await jobs.abandon(id);
        jobs.endWait(id);
        return reply;
      }
      if (job.status !== 'done') {
        // A job that did not finish was not charged, unless stopped at its time limit.
        reply.headers(quotaHeaders(job.charged ? status : givenBack(status)));
        throw jobError(job);
      }
      const stream = await jobs.openResult(job).catch(async (err: unknown) => {
        // Its file cannot be sent now (storage_unavailable): told 503, the job is free.
        if (err instanceof AppError && err.status === 503) await jobs.waive(id);
        throw err;
      });
      // Delivered once: the files and the record go when the whole file was sent ('finish'). A
      // response cut short keeps them, charged, for the user to download from their recent jobs.
      reply.raw.once('finish', () => {
        jobs.forget(job).catch((err: unknown) => request.log.warn({ err }, 'job cleanup failed'));
      });
      return reply
        .headers(quotaHeaders(status))
        .headers(downloadHeaders(job.result_content_type!, job.result_filename!))
        .header('x-original-size', String(job.input_bytes))
        .header('x-result-size', String(job.output_bytes))
        .send(stream);
    },
  );
}
