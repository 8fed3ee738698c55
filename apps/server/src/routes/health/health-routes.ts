import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '@refract/contracts';
import type { AppContext } from '../../app-context.js';

export const healthRoutes =
  (context: AppContext, queue: 'local' | 'bullmq'): FastifyPluginAsyncZod =>
  async (app) => {
    const schema = {
      summary: 'Whether the server and its engines are up',
      tags: ['Reference'],
      response: { 200: healthSchema },
    };
    app.get('/api/health', { config: { access: 'public' }, schema }, async () => {
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
