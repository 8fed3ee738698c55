import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { siteSchema } from '@refract/contracts';
import type { Config } from '../../config.js';
import { cachedBody, sendCached } from '../../lib/http-cache.js';

/** Public facts about this installation for the web app (no secrets, no session needed). */
export const siteRoutes =
  (config: Config): FastifyPluginAsyncZod =>
  async (app) => {
    // Fixed by the configuration: serialised once, and reusable by browsers until it changes.
    const site = cachedBody({
      contactUrl: config.contactUrl ?? null,
      uploadKeptSeconds: config.uploadTimeouts.totalMs / 1000,
    });
    app.get(
      '/api/site',
      { config: { access: 'public' }, schema: { response: { 200: siteSchema } } },
      async (request, reply) => sendCached(request, reply, site),
    );
  };
