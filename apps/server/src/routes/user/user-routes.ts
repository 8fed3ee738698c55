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
import type { Services } from '../../services/services.js';
import { quotaHeaders } from '../../lib/quota-headers.js';

export const userRoutes =
  (services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/user/preferred-language',
      {
        config: { access: 'user', errors: ['invalid_language'] },
        schema: {
          summary: 'Set your preferred language',
          tags: ['Account'],
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
        config: { access: 'user', metered: true, errors: ['unknown_service', 'quota_exceeded'] },
        schema: {
          summary:
            'Charge uses of a service done in the browser; a server run of it in the next 10 minutes takes one instead of charging again',
          tags: ['Account'],
          body: trackBodySchema,
          response: { 200: quotaStatusSchema },
        },
      },
      async (request, reply) => {
        const { service, imageCount } = request.body;
        if (!isService(service))
          throw new AppError(400, 'unknown_service', `Unknown service: ${service.slice(0, 60)}`);
        // The earlier client tracks before each tool it runs, in the browser or then on the
        // server: the server run takes the tracked use, so either way it is charged once.
        const status = await services.quotas.track(request.user!, service, imageCount);
        reply.headers(quotaHeaders(status));
        return status;
      },
    );

    app.get(
      '/api/user/stats',
      {
        config: { access: 'userOrKey' },
        schema: {
          summary: 'Your plan and what is left of each quota',
          tags: ['Usage'],
          response: { 200: userStatsSchema },
        },
      },
      async (request) => services.quotas.stats(request.user!),
    );
  };
