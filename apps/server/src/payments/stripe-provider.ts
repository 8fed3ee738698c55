import Stripe from 'stripe';
import type { PaymentProvider } from './payment-provider.js';

export interface StripeSettings {
  secretKey: string;
  publicUrl: string;
  /** Another API address (stripe-mock, the tests' fake); Stripe's own by default. */
  apiUrl?: string;
}

export function stripeClient({ secretKey, apiUrl }: StripeSettings): Stripe {
  if (!apiUrl) return new Stripe(secretKey);
  const url = new URL(apiUrl);
  return new Stripe(secretKey, {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
  });
}

/**
 * Stripe Checkout in subscription mode. Who bought what travels in the subscription's
 * metadata, so every later event (renewals, cancels) can be matched to the user, in any order.
 */
export function stripeProvider(
  settings: StripeSettings,
  stripe = stripeClient(settings),
): PaymentProvider {
  return {
    name: 'stripe',
    async createCheckout({ sessionId, user, plan, billingType, amountCents, currency }) {
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
        success_url: `${settings.publicUrl}/success`,
        cancel_url: `${settings.publicUrl}/cancel`,
      });
      if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
      return { url: session.url };
    },
    async cancelAtPeriodEnd(providerSubscriptionId) {
      if (!providerSubscriptionId) return;
      await stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: true });
    },
  };
}
