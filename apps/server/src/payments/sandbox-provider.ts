import type { PaymentProvider } from './payment-provider.js';

/**
 * The built-in test provider: checkout is a page of this app (/sandbox/checkout/:id) that takes
 * test cards only. No money moves; every page of it says so.
 */
export function sandboxProvider(): PaymentProvider {
  return {
    name: 'sandbox',
    // Made absolute from PUBLIC_URL by the payment service, like every address it answers.
    async createCheckout({ sessionId }) {
      return { url: `/sandbox/checkout/${sessionId}` };
    },
    // Sandbox periods are bought one at a time; there is nothing to stop.
    async cancelAtPeriodEnd() {},
    async resumeRenewal() {},
  };
}
