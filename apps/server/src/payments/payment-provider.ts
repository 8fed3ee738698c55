import type { PaymentProvider as ProviderName } from '@refract/contracts';

export interface CheckoutRequest {
  /** Our checkout session id (sandbox) or a reference kept in the provider's metadata (Stripe). */
  sessionId: string;
  user: { id: string; email: string; name: string };
  plan: { id: string; name: string };
  billingType: 'monthly' | 'annual';
  amountCents: number;
  currency: string;
  /** Where the browser returns, paid or not (absolute). */
  successUrl: string;
  cancelUrl: string;
  /** The key that opens this checkout's own page (sandbox) without a sign-in there. */
  linkKey: string;
}

/**
 * Where money is taken. Both providers end in the same fulfilment code (payments/fulfilment.ts):
 * the sandbox calls it when its test card is paid, Stripe's webhook when Stripe says so.
 */
export interface PaymentProvider {
  name: ProviderName;
  /** The address the browser is sent to, to pay. */
  createCheckout(request: CheckoutRequest): Promise<{ url: string }>;
  /** Stops renewals of the provider's subscription; it runs to the end of the paid period. */
  cancelAtPeriodEnd(providerSubscriptionId: string | null): Promise<void>;
  /** Undoes `cancelAtPeriodEnd`: the provider's subscription renews again. */
  resumeRenewal(providerSubscriptionId: string | null): Promise<void>;
}
