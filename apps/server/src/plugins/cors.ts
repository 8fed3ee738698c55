import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * Closed unless CORS_ORIGINS lists origins: without the plugin no response carries
 * Access-Control-Allow-Origin, so another site's scripts cannot read our answers. Credentials
 * are bearer tokens and API keys, never cookies, so no origin ever gets `allow-credentials`.
 */
export async function registerCors(app: FastifyInstance, origins: string[]) {
  if (origins.length === 0) return;
  await app.register(cors, {
    origin: origins,
    // PATCH and HEAD, and the tus headers: resumable uploads (/api/uploads) from another site.
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'authorization',
      'content-type',
      'x-api-key',
      'x-request-id',
      'tus-resumable',
      'upload-length',
      'upload-offset',
      'upload-metadata',
    ],
    exposedHeaders: [
      'content-disposition',
      'retry-after',
      'x-request-id',
      'x-quota-limit',
      'x-quota-remaining',
      'x-quota-reset',
      // The admin users list (the earlier client may run on another origin).
      'x-total-count',
      'link',
      'location',
      'tus-resumable',
      'upload-offset',
      'upload-length',
    ],
    maxAge: 600,
  });
}
