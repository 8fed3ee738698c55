import type { FastifyPluginAsync } from 'fastify';
import type Stripe from 'stripe';
import { AppError } from '../../lib/app-error.js';
import type { stripeEvents } from '../../services/payments/stripe-events.js';

/**
 * POST /api/subscriptions/webhook: Stripe's events, verified against STRIPE_WEBHOOK_SECRET on
 * the raw body (so this route alone reads its body as bytes). A forged or stale signature is
 * refused with 400 and changes nothing. Registered only when Stripe is the provider.
 */
export const stripeWebhookRoutes =
  (
    stripe: { client: Stripe; events: ReturnType<typeof stripeEvents> },
    secret: string,
  ): FastifyPluginAsync =>
  async (app) => {
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    // Public: Stripe signs the body instead of signing in.
    const options = { config: { access: 'public' as const } };
    app.post('/api/subscriptions/webhook', options, async (request) => {
      const signature = request.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw new Error();
        event = stripe.client.webhooks.constructEvent(request.body, signature, secret);
      } catch {
        throw new AppError(400, 'invalid_signature', 'The webhook signature is not valid');
      }
      const outcome = await stripe.events.handle(event);
      request.log.info({ eventId: event.id, type: event.type, outcome }, 'stripe event');
      return { received: true };
    });
  };
