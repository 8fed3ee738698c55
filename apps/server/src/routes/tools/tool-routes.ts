import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { formatsResponseSchema, toolById } from '@refract/contracts';
import type { AppContext } from '../../app-context.js';
import { ffmpegEncoders } from '../../media/av/encoders.js';
import { mediaFormatTable } from '../../media/av/media-formats.js';
import type { JobService } from '../../services/jobs/job-service.js';
import { formatTable } from '../../media/image/formats.js';
import { createWorkDir, receiveUpload, removeWorkDir } from '../../plugins/uploads.js';
import type { Services } from '../../services/services.js';
import { clientGone } from '../../media/image/slots.js';
import { TOOL_REGISTRY } from '../../tools/registry.js';
import { fileCeilings } from '../../services/file-limits.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';
import type { UploadStore } from '../../services/uploads/upload-store.js';
import { registerJobTool } from './job-tool-route.js';
import { downloadHeaders, runMetered } from './metered.js';
import { parseToolFields } from './tool-fields.js';
import { toolDocs } from './tool-docs.js';

/**
 * A signal that aborts when the client goes away before its answer is sent. The response's
 * 'close' before it has finished means exactly that; the request's own 'close' also fires when
 * its body has simply been read, so it is not used.
 */
export function abortOnClientGone(response: ServerResponse) {
  const controller = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) controller.abort(clientGone());
  };
  response.once('close', onClose);
  return { signal: controller.signal, disarm: () => response.off('close', onClose) };
}

/**
 * One POST route per tool (audio and video ones run as jobs, see job-tool-route.ts): sign-in, upload to disk, field checks, quota reservation, the tool,
 * then the result streamed back. Whatever happens, the request's temp files are removed and
 * a failed use is given back.
 */
export const toolRoutes =
  (
    context: AppContext,
    services: Services,
    jobs: JobService,
    uploads: UploadStore,
  ): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/api/formats',
      {
        config: { access: 'public' },
        schema: {
          summary: 'The formats this server reads and writes',
          tags: ['Tools'],
          response: { 200: formatsResponseSchema },
        },
      },
      async () => ({
        formats: formatTable(context.engines),
        media: mediaFormatTable(await ffmpegEncoders(context.config.engines.ffmpeg)),
        fileMaxBytes: fileCeilings(context.config),
      }),
    );

    for (const tool of TOOL_REGISTRY) {
      if (tool.runsAs === 'job') registerJobTool(app, tool, context, services, jobs, uploads);
      else registerTool(tool);
    }

    function registerTool(tool: ToolDefinition) {
      app.post(
        tool.path,
        {
          bodyLimit: tool.maxBytes! + 1024 * 1024,
          ...toolDocs(tool),
        },
        async (request, reply) => {
          // A user backing off after repeated timeouts is refused before the upload is read
          // (runMetered would refuse them too, after it).
          services.timeouts.check(request.user!.id);
          const workDir = await createWorkDir(context.config.dataDir);
          let cleanupNow = true;
          const aborted = abortOnClientGone(reply.raw);
          try {
            const maxBytes = await services.quotas.fileLimit(request.user!, toolById(tool.id));
            const upload = await context.metrics.receiving(
              'form',
              () => receiveUpload(request, tool.fileField, maxBytes, workDir, tool.extraFiles),
              (received) => received.bytes,
            );
            const fields = parseToolFields(tool, upload.fields);
            await tool.precheck?.(fields, context.engines, context.config);
            const run = {
              input: upload.path!,
              inputBytes: upload.bytes,
              inputName: upload.filename,
              fields,
              extraFiles: upload.extraFiles,
              workDir,
              engines: context.engines,
              config: context.config,
              onProgress: () => {},
              signal: aborted.signal,
              owner: { userId: request.user!.id, waits: false },
            };
            const result = await runMetered(
              services,
              request.user!,
              tool.service(fields),
              reply,
              async () => {
                const done = await tool.run(run);
                // Finished after the client left: nobody gets it, so it is not charged.
                aborted.signal.throwIfAborted();
                return done;
              },
              tool.mapError,
            );
            const stream = createReadStream(result.path);
            // The directory goes once the result has been sent, or the client went away.
            cleanupNow = false;
            const cleanup = () => void removeWorkDir(workDir);
            stream.once('close', cleanup);
            reply.raw.once('close', cleanup);
            return reply
              .headers(result.headers ?? {})
              .headers(downloadHeaders(result.contentType, result.filename))
              .send(stream);
          } finally {
            aborted.disarm();
            if (cleanupNow) await removeWorkDir(workDir);
          }
        },
      );
    }
  };
