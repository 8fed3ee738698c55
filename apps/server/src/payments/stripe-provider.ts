import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { PaymentProvider } from './payment-provider.js';

/** Loaded only with PAYMENT_PROVIDER=stripe: the SDK is 10 MB of memory the sandbox never uses. */
const loadStripe = () => createRequire(import.meta.url)('stripe') as typeof Stripe;

/** The SDK, on Stripe's own API or on `apiUrl` (stripe-mock, the tests' fake). */
export function stripeClient({
  secretKey,
  apiUrl,
}: {
  secretKey: string;
  apiUrl?: string;
}): Stripe {
  const StripeSdk = loadStripe();
  if (!apiUrl) return new StripeSdk(secretKey);
  const url = new URL(apiUrl);
  return new StripeSdk(secretKey, {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
  });
}

/**
 * Stripe Checkout in subscription mode. Who bought what travels in the subscription's
 * metadata, so every later event (renewals, cancels) can be matched to the user, in any order.
 */
export function stripeProvider(stripe: Stripe): PaymentProvider {
  return {
    name: 'stripe',
    async createCheckout(request) {
      const { sessionId, user, plan, billingType, amountCents, currency } = request;
      const metadata = { userId: user.id, planId: plan.id, billingType, checkoutId: sessionId };
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer_email: user.email,
        client_reference_id: user.id,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency,
              unit_amount: amountCents,
              recurring: { interval: billingType === 'annual' ? 'year' : 'month' },
              product_data: { name: `Refract ${plan.name}` },
            },
          },
        ],
        metadata,
        subscription_data: { metadata },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      });
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
      return { url: session.url };
    },
    async cancelAtPeriodEnd(providerSubscriptionId) {
      if (!providerSubscriptionId) return;
      await stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: true });
    },
    async resumeRenewal(providerSubscriptionId) {
      if (!providerSubscriptionId) return;
      await stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: false });
    },
  };
}
