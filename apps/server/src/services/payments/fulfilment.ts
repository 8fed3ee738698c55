import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { paymentsRepository } from '../../db/repositories/payments-repository.js';
import { subscriptionsRepository } from '../../db/repositories/subscriptions-repository.js';
import { addMonths } from '../quota-period.js';

export interface PaidPeriod {
  userId: string;
  planId: string;
  billingType: 'monthly' | 'annual';
  provider: 'sandbox' | 'stripe' | 'admin';
  /** One payment per id, whatever arrives twice (a replayed webhook, a double-clicked pay). */
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  card: { brand: string | null; last4: string | null };
  receiptUrl: string | null;
  billing: { name: string | null; email: string | null };
  providerSubscriptionId?: string | null;
  /** The period the provider says this payment covers (a Stripe invoice); else the next one. */
  period?: { start: Date; end: Date };
}

/**
 * The one fulfilment path of both providers: records the payment and activates or extends the
 * subscription (monthly: a month, annual: a year and the annual quotas), in one transaction.
 * Idempotent: a payment already recorded changes nothing. Order-independent: the end date only
 * ever moves forward, so a late, older renewal cannot shorten it. Returns whether it applied.
 */
export async function fulfil(db: Kysely<Database>, paid: PaidPeriod, now = new Date()) {
  return db.transaction().execute(async (trx) => {
    const payments = paymentsRepository(trx);
    const subscriptions = subscriptionsRepository(trx);
    // Locked: parallel payments of one user each extend from the end the previous one set.
    const current = await subscriptions.findByUserForUpdate(paid.userId);
    const continuing =
      current !== undefined &&
      new Date(current.end_date) > now &&
      current.plan_id === paid.planId &&
      current.billing_type === paid.billingType;
    const start = paid.period?.start ?? (continuing ? new Date(current.end_date) : now);
    const end = paid.period?.end ?? addMonths(start, paid.billingType === 'annual' ? 12 : 1);
    const recorded = await payments.insert({
      id: randomUUID(),
      user_id: paid.userId,
      plan_id: paid.planId,
      provider: paid.provider,
      provider_payment_id: paid.providerPaymentId,
      amount_cents: paid.amountCents,
      currency: paid.currency,
      billing_type: paid.billingType,
      cycle_start: start.toISOString(),
      cycle_end: end.toISOString(),
      card_brand: paid.card.brand,
      card_last4: paid.card.last4,
      receipt_url: paid.receiptUrl,
      billing_name: paid.billing.name,
      billing_email: paid.billing.email,
      status: 'paid',
      created_at: now.toISOString(),
    });
    if (!recorded) return false;
    const currentEnd = continuing ? new Date(current.end_date) : start;
    await subscriptions.upsert({
      userId: paid.userId,
      planId: paid.planId,
      billingType: paid.billingType,
      // Quota months count from the anchor; a renewal keeps it, a new plan or cycle starts one.
      anchorDate: continuing ? new Date(current.anchor_date) : start,
      endDate: end > currentEnd ? end : currentEnd,
      providerSubscriptionId: paid.providerSubscriptionId ?? current?.provider_subscription_id,
    });
    return true;
  });
}
