import { z } from 'zod';
import { BILLING_TYPES } from './plans.js';

export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** `GET /api/payments/mode`: which provider takes payments; the sandbox is test mode. */
export const paymentModeSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  testMode: z.boolean(),
});
export type PaymentMode = z.infer<typeof paymentModeSchema>;

/**
 * A return address: on this site or on an origin of CORS_ORIGINS, else 400
 * `return_url_not_allowed`. Without them, a caller from an origin of CORS_ORIGINS returns to its
 * own `/success` and `/cancel`, anyone else to this site's.
 */
const returnUrl = z.url({ protocol: /^https?$/ }).max(2048);

export const checkoutBodySchema = z.object({
  planId: z.string().min(1).max(100),
  billingType: z.enum(BILLING_TYPES).default('monthly'),
  successUrl: returnUrl.optional(),
  cancelUrl: returnUrl.optional(),
});
/**
 * Where to send the browser, an absolute address built from PUBLIC_URL. A downgrade is not
 * paid for: it is scheduled for the end of the paid period (`scheduledFor`) and `url` is the
 * dashboard.
 */
export const checkoutResponseSchema = z.object({
  url: z.string(),
  scheduledFor: z.string().optional(),
});

/** A recorded payment; amounts in cents. */
export const paymentSchema = z.object({
  _id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  billingType: z.enum(BILLING_TYPES),
  billingCycle: z.object({ startDate: z.string(), endDate: z.string() }),
  planId: z.object({ _id: z.string(), name: z.string() }),
  paymentMethod: z.object({ brand: z.string().nullable(), last4: z.string().nullable() }),
  receiptUrl: z.string().nullable(),
  billingDetails: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
  status: z.string(),
  createdAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const adminPaymentSchema = paymentSchema.extend({
  userId: z.object({ name: z.string(), email: z.string(), country: z.string().nullable() }),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-01-31')
  .optional()
  .or(z.literal('').transform(() => undefined));

export const adminPaymentsQuerySchema = z.object({
  email: z.string().max(200).optional(),
  plan: z.string().max(100).optional(),
  from: day,
  to: day,
});
export const adminPaymentsResponseSchema = z.object({
  payments: z.array(adminPaymentSchema),
  /** Cents: the sum of what the filter matched. */
  total: z.number().int(),
});

/** The built-in test checkout. */
export const sandboxCheckoutSchema = z.object({
  id: z.string(),
  plan: z.object({ _id: z.string(), name: z.string() }),
  billingType: z.enum(BILLING_TYPES),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(['open', 'completed', 'declined']),
  /** Where "cancel" goes: `/cancel` on this site, or the caller's own address. */
  cancelUrl: z.string(),
});
export type SandboxCheckout = z.infer<typeof sandboxCheckoutSchema>;

export const sandboxPayBodySchema = z.object({
  cardNumber: z.string().max(40),
  expiry: z.string().max(10),
  cvc: z.string().max(10),
  name: z.string().trim().min(1).max(200),
});
/**
 * Paid: where to go (`/success` on this site, or the caller's own address). A declined card is
 * `402 card_declined` and the checkout stays open.
 */
export const sandboxPayResponseSchema = z.object({ redirect: z.string() });

/** The header that carries a sandbox checkout link's key (the link holds it after `#key=`). */
export const CHECKOUT_KEY_HEADER = 'x-checkout-key';

/** Test cards of the sandbox: one that pays, one that is declined. */
export const SANDBOX_CARDS = { success: '4242424242424242', declined: '4000000000000002' } as const;
