import type { PaymentProvider } from './payment-provider.js';

/**
 * The built-in test provider: checkout is a page of this app (/sandbox/checkout/:id) that takes
 * test cards only. No money moves; every page of it says so.
 */
export function sandboxProvider(): PaymentProvider {
  return {
    name: 'sandbox',
    // Made absolute from PUBLIC_URL by the payment service, like every address it answers. The
    // key rides in the fragment, which browsers never send: it stays out of logs and Referer.
    async createCheckout({ sessionId, linkKey }) {
      return { url: `/sandbox/checkout/${sessionId}#key=${linkKey}` };
    },
    // Sandbox periods are bought one at a time; there is nothing to stop.
    async cancelAtPeriodEnd() {},
    async resumeRenewal() {},
  };
}
