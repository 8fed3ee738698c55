import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminPaymentsQuerySchema,
  adminPaymentsResponseSchema,
  checkoutBodySchema,
  checkoutResponseSchema,
  paymentModeSchema,
  paymentSchema,
  subscriptionStatusSchema,
} from '@refract/contracts';
import type { Config } from '../../config.js';
import type { Services } from '../../services/services.js';

/** Checkout, the subscription, and payment history (the provider's own routes are apart). */
export const paymentRoutes =
  (config: Config, services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['Payments'];
    app.get(
      '/api/payments/mode',
      {
        config: { access: 'public' },
        schema: {
          summary: 'Which provider takes payments',
          tags,
          response: { 200: paymentModeSchema },
        },
      },
      async () => ({
        provider: config.payments.provider,
        testMode: config.payments.provider === 'sandbox',
      }),
    );

    app.post(
      '/api/subscriptions/create-checkout-session',
      {
        config: {
          access: 'user',
          errors: [
            'not_found',
            'plan_not_purchasable',
            'billing_cycle_unavailable',
            'return_url_not_allowed',
          ],
        },
        schema: {
          summary: 'Start paying for a plan: the address to send the browser to',
          tags,
          body: checkoutBodySchema,
          response: { 200: checkoutResponseSchema },
        },
      },
      async (request) => {
        const { planId, billingType, ...asked } = request.body;
        const origin = request.headers.origin;
        return services.payments.createCheckout(request.user!, planId, billingType, asked, origin);
      },
    );

    app.get(
      '/api/payments/subscription-status',
      {
        config: { access: 'user', errors: ['no_subscription'] },
        schema: { summary: 'Your subscription', tags, response: { 200: subscriptionStatusSchema } },
      },
      async (request) => services.plans.subscriptionStatus(request.user!),
    );

    app.post(
      '/api/payments/cancel-subscription',
      {
        config: { access: 'user' },
        schema: {
          summary: 'Cancel at the end of the paid period',
          tags,
          response: { 200: subscriptionStatusSchema },
        },
      },
      async (request) => {
        await services.payments.cancelSubscription(request.user!);
        return services.plans.subscriptionStatus(request.user!);
      },
    );

    app.post(
      '/api/payments/undo-scheduled-change',
      {
        config: { access: 'user', errors: ['no_scheduled_change'] },
        schema: {
          summary: 'Keep the current plan: undo a scheduled downgrade or cancel',
          tags,
          response: { 200: subscriptionStatusSchema },
        },
      },
      async (request) => {
        await services.payments.undoScheduledChange(request.user!);
        return services.plans.subscriptionStatus(request.user!);
      },
    );

    app.get(
      '/api/payments',
      {
        config: { access: 'user' },
        schema: {
          summary: 'Your payments, newest first',
          tags,
          response: { 200: z.array(paymentSchema) },
        },
      },
      async (request) => services.payments.listForUser(request.user!),
    );

    app.get(
      '/api/admin/payments',
      {
        config: { access: 'admin' },
        schema: {
          querystring: adminPaymentsQuerySchema,
          response: { 200: adminPaymentsResponseSchema },
        },
      },
      async (request) => services.payments.listForAdmin(request.query),
    );
  };
