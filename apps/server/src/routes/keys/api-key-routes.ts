import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiKeyListSchema,
  apiKeyParamsSchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
} from '@refract/contracts';
import type { Services } from '../../services/services.js';

/** Account routes: a signed-in user manages their keys; a key cannot manage keys. */
export const apiKeyRoutes =
  (services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const docs = { tags: ['API keys'] };

    app.get(
      '/api/keys',
      {
        config: { access: 'user' },
        schema: { ...docs, summary: 'List your API keys', response: { 200: apiKeyListSchema } },
      },
      async (request) => ({ keys: await services.apiKeys.list(request.user!.id) }),
    );

    app.post(
      '/api/keys',
      {
        config: { access: 'user', errors: ['api_key_limit_reached'] },
        schema: {
          ...docs,
          summary: 'Create an API key (the key is shown only in this answer)',
          body: createApiKeyBodySchema,
          response: { 201: createdApiKeySchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await services.apiKeys.create(request.user!.id, request.body.name)),
    );

    app.delete(
      '/api/keys/:id',
      {
        config: { access: 'user', errors: ['not_found'] },
        schema: {
          ...docs,
          summary: 'Revoke an API key; it is refused from then on',
          params: apiKeyParamsSchema,
          response: { 204: z.undefined().describe('Revoked') },
        },
      },
      async (request, reply) => {
        await services.apiKeys.revoke(request.user!.id, request.params.id);
        return reply.status(204).send();
      },
    );
  };
