import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '@refract/contracts';
import type { AppContext } from '../../app-context.js';

export const healthRoutes =
  (context: AppContext, queue: 'local' | 'bullmq'): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/health', { schema: { response: { 200: healthSchema } } }, async () => {
      const { engines, database, version } = context;
      return {
        status: engines.sharp.available ? ('ok' as const) : ('degraded' as const),
        version,
        db: database.kind,
        queue,
        engines,
      };
    });
  };
