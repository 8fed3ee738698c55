import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { preferredLanguageBodySchema, preferredLanguageResponseSchema } from '@refract/contracts';
import type { AuthGuards } from '../../plugins/auth.js';
import type { Services } from '../../services/services.js';

export const userRoutes =
  (services: Services, guards: AuthGuards): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/user/preferred-language',
      {
        preHandler: guards.requireUser,
        schema: {
          body: preferredLanguageBodySchema,
          response: { 200: preferredLanguageResponseSchema },
        },
      },
      async (request) =>
        services.accounts.setPreferredLanguage(request.user!.id, request.body.language),
    );
  };
