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
import { chargedByItsTool } from '../../tools/registry.js';

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
            "Charge uses of a service done in the browser; for a service its tool charges, only the quota's standing",
          tags: ['Account'],
          body: trackBodySchema,
          response: { 200: quotaStatusSchema },
        },
      },
      async (request, reply) => {
        const { service, imageCount } = request.body;
        if (!isService(service))
          throw new AppError(400, 'unknown_service', `Unknown service: ${service.slice(0, 60)}`);
        // The earlier client calls this before each tool; a tool that charges on the server
        // would make that two uses, so for it this only answers the standing (403 when spent).
        const status = chargedByItsTool(service)
          ? await services.quotas.check(request.user!, service, imageCount)
          : await services.quotas.track(request.user!, service, imageCount);
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
