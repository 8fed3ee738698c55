import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { detectFacesResponseSchema, toolById, type DetectedFace } from '@refract/contracts';
import type { AppContext } from '../../app-context.js';
import { findFaces } from '../../media/faces/face-detector.js';
import { loadImage, toImageError } from '../../media/image/pipeline.js';
import { inImageSlot } from '../../media/image/slots.js';
import { createWorkDir, receiveUpload, removeWorkDir } from '../../plugins/uploads.js';
import type { Services } from '../../services/services.js';
import { abortOnClientGone } from './tool-routes.js';

/**
 * POST /api/detect-faces: where the faces are, for the face-blur page to place its areas on.
 * Signed-in users only, and free: only the blur that follows is charged. Free work is held to
 * the same back-off after repeated timeouts as the charged tools (routes/tools/metered.ts).
 */
export const detectFacesRoutes =
  (context: AppContext, services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const maxBytes = toolById('blurFace').maxUploadBytes;
    app.post(
      '/api/detect-faces',
      {
        bodyLimit: maxBytes + 1024 * 1024,
        config: {
          access: 'userOrKey',
          upload: { fileField: 'image', maxBytes, fields: z.object({}) },
          errors: [
            'no_file',
            'file_too_large',
            'payload_too_large',
            'unsupported_media_type',
            'invalid_image',
            'image_too_large',
            'server_busy',
            'engine_unavailable',
            'processing_timeout',
            'too_many_timeouts',
          ],
        },
        schema: {
          summary: 'Find the faces in an image (free)',
          tags: ['Image tools'],
          response: { 200: detectFacesResponseSchema },
        },
      },
      async (request, reply) => {
        services.timeouts.check(request.user!.id);
        const workDir = await createWorkDir(context.config.dataDir);
        // Every step stops when the client leaves: a decode waiting for its slot, the model's turn.
        const { signal, disarm } = abortOnClientGone(reply.raw);
        try {
          const upload = await receiveUpload(request, 'image', maxBytes, workDir);
          const image = await loadImage(upload.path!, signal);
          let faces: DetectedFace[];
          try {
            const { autoOrient } = await inImageSlot(() => image.pipeline().metadata(), signal);
            faces = await findFaces(image.pipeline, autoOrient, signal);
          } catch (err) {
            throw toImageError(err);
          }
          return { faces };
        } catch (err) {
          throw services.timeouts.record(request.user!.id, err);
        } finally {
          disarm();
          await removeWorkDir(workDir);
        }
      },
    );
  };
