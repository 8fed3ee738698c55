import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import { BILLING_TYPES, type BillingType } from '@refract/contracts';
import type { Database } from '../../db/schema.js';
import type { PaymentsRepository } from '../../db/repositories/payments-repository.js';
import type { PlansRepository } from '../../db/repositories/plans-repository.js';
import type { SubscriptionsRepository } from '../../db/repositories/subscriptions-repository.js';
import { fulfil } from './fulfilment.js';

/** What we sold, as the checkout put it in the session's and subscription's metadata. */
interface Sale {
  userId: string;
  planId: string;
  billingType: BillingType;
}

type Metadata = Record<string, string> | null | undefined;

/** The fields we read, in the shapes of both older and newer Stripe API versions. */
interface CheckoutObject {
  id: string;
  metadata?: Metadata;
  subscription?: string | null;
  invoice?: string | null;
  amount_total?: number | null;
  currency?: string | null;
  customer_details?: { name?: string | null; email?: string | null } | null;
}
interface InvoiceObject {
  id: string;
  billing_reason?: string | null;
  amount_paid: number;
  currency: string;
  hosted_invoice_url?: string | null;
  customer_name?: string | null;
  customer_email?: string | null;
  subscription?: string | null;
  subscription_details?: { metadata?: Metadata } | null;
  parent?: { subscription_details?: { subscription?: string; metadata?: Metadata } | null } | null;
  lines?: { data?: { period?: { start: number; end: number } }[] };
}
interface SubscriptionObject {
  id: string;
  cancel_at_period_end?: boolean;
  current_period_start?: number;
  current_period_end?: number;
  items?: { data?: { current_period_start?: number; current_period_end?: number }[] };
  default_payment_method?: { card?: { brand?: string; last4?: string } } | string | null;
}

const seconds = (unix: number) => new Date(unix * 1000);

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

/**
 * Applies one verified Stripe event. Every event is applied at most once (its id is stored),
 * payments once per invoice, and subscription changes only when newer than the last applied,
 * so replays and out-of-order delivery change nothing.
 */
export function stripeEvents(deps: {
  db: Kysely<Database>;
  stripe: Stripe;
  payments: PaymentsRepository;
  plans: PlansRepository;
  subscriptions: SubscriptionsRepository;
  /** Told of each payment that gave a plan (counted for /metrics). */
  onFulfilled?(provider: string): void;
}) {
  const counted = (applied: boolean) => {
    if (applied) deps.onFulfilled?.('stripe');
    return applied;
  };
  async function saleFrom(metadata: Metadata): Promise<Sale | undefined> {
    const { userId, planId, billingType } = metadata ?? {};
    if (!userId || !planId || !BILLING_TYPES.includes(billingType as BillingType)) return undefined;
    if (!(await deps.plans.findById(planId))) return undefined;
    return { userId, planId, billingType: billingType as BillingType };
  }

  async function completedCheckout(session: CheckoutObject) {
    const sale = await saleFrom(session.metadata);
    if (!sale) return false;
    const subscription = session.subscription
      ? ((await deps.stripe.subscriptions.retrieve(session.subscription, {
          expand: ['default_payment_method'],
        })) as unknown as SubscriptionObject)
      : undefined;
    const item = subscription?.items?.data?.[0];
    const start = item?.current_period_start ?? subscription?.current_period_start;
    const end = item?.current_period_end ?? subscription?.current_period_end;
    const method = subscription?.default_payment_method;
    const card = typeof method === 'object' ? method?.card : undefined;
    return counted(
      await fulfil(deps.db, {
        ...sale,
        provider: 'stripe',
        // The first invoice's id, so its invoice.paid event is the same payment, not a second one.
        providerPaymentId: session.invoice ?? session.id,
        amountCents: session.amount_total ?? 0,
        currency: session.currency ?? 'usd',
        card: { brand: card?.brand ?? null, last4: card?.last4 ?? null },
        receiptUrl: null,
        billing: {
          name: session.customer_details?.name ?? null,
          email: session.customer_details?.email ?? null,
        },
        providerSubscriptionId: session.subscription ?? null,
        period: start && end ? { start: seconds(start), end: seconds(end) } : undefined,
      }),
    );
  }

  async function paidInvoice(invoice: InvoiceObject) {
    const details = invoice.parent?.subscription_details;
    const sale = await saleFrom(details?.metadata ?? invoice.subscription_details?.metadata);
    if (!sale) return false;
    const period = invoice.lines?.data?.[0]?.period;
    return counted(
      await fulfil(deps.db, {
        ...sale,
        provider: 'stripe',
        providerPaymentId: invoice.id,
        amountCents: invoice.amount_paid,
        currency: invoice.currency,
        card: { brand: null, last4: null },
        receiptUrl: invoice.hosted_invoice_url ?? null,
        billing: { name: invoice.customer_name ?? null, email: invoice.customer_email ?? null },
        providerSubscriptionId: details?.subscription ?? invoice.subscription ?? null,
        period: period ? { start: seconds(period.start), end: seconds(period.end) } : undefined,
      }),
    );
  }

  async function apply(event: Stripe.Event): Promise<boolean> {
    const object = event.data.object as unknown;
    const at = seconds(event.created).toISOString();
    switch (event.type) {
      case 'checkout.session.completed':
        return completedCheckout(object as CheckoutObject);
      case 'invoice.paid':
        return paidInvoice(object as InvoiceObject);
      case 'customer.subscription.updated': {
        const subscription = object as SubscriptionObject;
        return deps.subscriptions.applyProviderEvent(subscription.id, at, {
          cancelAtPeriodEnd: subscription.cancel_at_period_end ?? false,
        });
      }
      case 'customer.subscription.deleted':
        // Ended by Stripe (cancelled, or unpaid): Basic from now on.
        return deps.subscriptions.applyProviderEvent((object as SubscriptionObject).id, at, {
          endDate: at,
          cancelAtPeriodEnd: false,
        });
      default:
        return false;
    }
  }

  return {
    async handle(event: Stripe.Event): Promise<EventOutcome> {
      if (await deps.payments.wasEventProcessed(event.id)) return 'duplicate';
      const applied = await apply(event);
      // Marked after it is applied: an event that failed half-way is retried by Stripe.
      await deps.payments.markEventProcessed(event.id, event.type, new Date().toISOString());
      return applied ? 'applied' : 'ignored';
    },
  };
}
