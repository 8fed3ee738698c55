import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { siteSchema } from '@refract/contracts';
import type { Config } from '../../config.js';

/** Public facts about this installation for the web app (no secrets, no session needed). */
export const siteRoutes =
  (config: Config): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/site',
      { config: { access: 'public' }, schema: { response: { 200: siteSchema } } },
      async () => ({
        contactUrl: config.contactUrl ?? null,
      }),
    );
  };
