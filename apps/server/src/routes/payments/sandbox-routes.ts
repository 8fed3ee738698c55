import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  sandboxCheckoutSchema,
  sandboxPayBodySchema,
  sandboxPayResponseSchema,
} from '@refract/contracts';
import type { AuthGuards } from '../../plugins/auth.js';
import type { Services } from '../../services/services.js';

const params = z.object({ id: z.string().min(1).max(100) });

/** The sandbox checkout's API: registered only while the sandbox is the provider. */
export const sandboxRoutes =
  (services: Services, guards: AuthGuards): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/sandbox/checkout/:id',
      {
        preHandler: guards.requireUser,
        schema: { params, response: { 200: sandboxCheckoutSchema } },
      },
      async (request) => services.payments.sandboxCheckout(request.user!, request.params.id),
    );

    app.post(
      '/api/sandbox/checkout/:id/pay',
      {
        preHandler: guards.requireUser,
        schema: {
          summary: 'Pay a test-mode checkout with a test card',
          tags: ['Payments'],
          params,
          body: sandboxPayBodySchema,
          response: { 200: sandboxPayResponseSchema },
        },
        config: { errors: ['not_found', 'invalid_card', 'checkout_closed'] },
      },
      async (request) =>
        services.payments.sandboxPay(request.user!, request.params.id, request.body),
    );
  };
