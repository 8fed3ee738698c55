import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  sandboxCheckoutSchema,
  sandboxPayBodySchema,
  sandboxPayResponseSchema,
} from '@refract/contracts';
import type { Services } from '../../services/services.js';

const params = z.object({ id: z.string().min(1).max(100) });

/** The sandbox checkout's API: registered only while the sandbox is the provider. */
export const sandboxRoutes =
  (services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/sandbox/checkout/:id',
      {
        config: {
          access: 'checkoutLink',
          errors: ['not_found'],
        },
        schema: { params, response: { 200: sandboxCheckoutSchema } },
      },
      async (request) => services.payments.sandboxCheckout(request.user!, request.params.id),
    );

    app.post(
      '/api/sandbox/checkout/:id/pay',
      {
        config: {
          access: 'checkoutLink',
          errors: ['not_found', 'invalid_card', 'card_declined', 'checkout_closed'],
        },
        schema: {
          summary: 'Pay a test-mode checkout with a test card',
          tags: ['Payments'],
          params,
          body: sandboxPayBodySchema,
          response: { 200: sandboxPayResponseSchema },
        },
      },
      async (request) =>
        services.payments.sandboxPay(request.user!, request.params.id, request.body),
    );
  };
