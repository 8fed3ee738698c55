import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  isService,
  preferredLanguageBodySchema,
  preferredLanguageResponseSchema,
  quotaStatusSchema,
  trackBodySchema,
  userStatsSchema,
} from '@refract/contracts';
import { AppError } from '../../lib/app-error.js';
import type { AuthGuards } from '../../plugins/auth.js';
import type { Services } from '../../services/services.js';
import { quotaHeaders } from '../../lib/quota-headers.js';

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

    app.post(
      '/api/user/track',
      {
        preHandler: guards.requireUser,
        schema: { body: trackBodySchema, response: { 200: quotaStatusSchema } },
      },
      async (request, reply) => {
        const { service, imageCount } = request.body;
        if (!isService(service))
          throw new AppError(400, 'unknown_service', `Unknown service: ${service.slice(0, 60)}`);
        const status = await services.quotas.track(request.user!, service, imageCount);
        reply.headers(quotaHeaders(status));
        return status;
      },
    );

    app.get(
      '/api/user/stats',
      { preHandler: guards.requireUser, schema: { response: { 200: userStatsSchema } } },
      async (request) => services.quotas.stats(request.user!),
    );
  };
