import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  billingCyclesOffered,
  isFreePlan,
  SANDBOX_CARDS,
  type AdminPayment,
  type BillingType,
  type Payment,
  type SandboxCheckout,
} from '@refract/contracts';
import type { Database } from '../../db/schema.js';
import type {
  PaymentFilter,
  PaymentRow,
  PaymentsRepository,
} from '../../db/repositories/payments-repository.js';
import type { PlansRepository } from '../../db/repositories/plans-repository.js';
import type { SubscriptionsRepository } from '../../db/repositories/subscriptions-repository.js';
import type { UserRow, UsersRepository } from '../../db/repositories/users-repository.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { randomToken, sha256 } from '../../lib/hashing.js';
import type { PaymentProvider } from '../../payments/payment-provider.js';
import type { QuotaService } from '../quota-service.js';
import { fulfil } from './fulfilment.js';
import { applyDueChange, feeOf, feesOf, isDowngradeOf, NO_END } from './plan-changes.js';
import { returnAddresses } from './return-addresses.js';

const CURRENCY = 'usd';
/** A sandbox checkout left open longer than this is closed. */
const CHECKOUT_LIFETIME_MS = 60 * 60 * 1000;

const invalidCard = (message: string) => new AppError(400, 'invalid_card', message);

function toApiPayment(row: PaymentRow & { plan_name: string }): Payment {
  return {
    _id: row.id,
    amount: row.amount_cents,
    currency: row.currency,
    billingType: row.billing_type,
    billingCycle: { startDate: row.cycle_start, endDate: row.cycle_end },
    planId: { _id: row.plan_id, name: row.plan_name },
    paymentMethod: { brand: row.card_brand, last4: row.card_last4 },
    receiptUrl: row.receipt_url,
    billingDetails: { name: row.billing_name, email: row.billing_email },
    status: row.status,
    createdAt: row.created_at,
  };
}

/** MM/YY (or MM/YYYY) not in the past. */
function expiryIsValid(expiry: string, now: Date): boolean {
  const match = expiry.replace(/\s/g, '').match(/^(\d{2})\/(\d{2}|\d{4})$/);
  if (!match) return false;
  const month = Number(match[1]);
  const year = Number(match[2]!.length === 2 ? `20${match[2]}` : match[2]);
  if (month < 1 || month > 12) return false;
  return (
    year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1)
  );
}

export function paymentService(deps: {
  db: Kysely<Database>;
  plans: PlansRepository;
  subscriptions: SubscriptionsRepository;
  payments: PaymentsRepository;
  users: Pick<UsersRepository, 'findById'>;
  provider: PaymentProvider;
  quotas: Pick<QuotaService, 'entitlement'>;
  /** PUBLIC_URL: every address the API answers is absolute, for clients on other origins. */
  publicUrl: string;
  /** CORS_ORIGINS: the other sites a checkout may return to. */
  corsOrigins: readonly string[];
  /** Told of each payment that gave a plan (counted for /metrics). */
  onFulfilled?(provider: string): void;
}) {
  const { plans, subscriptions, payments, provider, quotas } = deps;
  const absolute = (url: string) => new URL(url, deps.publicUrl).toString();
  /** An address on this site as its path (the page navigates in place), any other whole. */
  const forPage = (url: string) => {
    const address = new URL(url);
    const own = address.origin === new URL(deps.publicUrl).origin;
    return own ? `${address.pathname}${address.search}${address.hash}` : address.toString();
  };
  const isStale = (checkout: { created_at: string }, now: Date) =>
    now.getTime() - new Date(checkout.created_at).getTime() > CHECKOUT_LIFETIME_MS;

  /** The user's subscription while it is paid for, with its plan; undefined otherwise. */
  async function paidSubscription(user: UserRow, now: Date) {
    const row = await applyDueChange(
      plans,
      subscriptions,
      await subscriptions.findByUser(user.id),
      now,
    );
    if (!row || new Date(row.end_date) <= now) return undefined;
    const plan = await plans.findById(row.plan_id);
    if (!plan || feeOf(plan, row.billing_type) === 0) return undefined;
    return { row, plan };
  }

  async function ownSandboxCheckout(user: UserRow, id: string) {
    const checkout = await payments.findCheckout(id);
    if (!checkout || checkout.user_id !== user.id || checkout.provider !== 'sandbox')
      throw notFound('No such checkout');
    return checkout;
  }

  return {
    /**
     * Starts paying for a plan: the address to send the browser to. A downgrade from a paid
     * plan is scheduled for the end of the paid period; otherwise a free plan switches at once.
     * The hidden admin plan and archived plans cannot be bought, nor a paid plan's cycle at 0.
     */
    /**
     * Starts paying for a plan. `asked` return addresses, and the caller's `Origin`, decide
     * where the browser comes back to (return-addresses.ts).
     */
    async createCheckout(
      user: UserRow,
      planId: string,
      billingType: BillingType,
      asked: { successUrl?: string; cancelUrl?: string } = {},
      callerOrigin?: string,
    ): Promise<{ url: string; scheduledFor?: string }> {
      const back = returnAddresses(deps, asked, callerOrigin);
      const plan = await plans.findById(planId);
      if (!plan) throw notFound('No such plan');
      if (plan.hidden || plan.archived)
        throw new AppError(400, 'plan_not_purchasable', `The ${plan.name} plan cannot be bought`);
      const fees = feesOf(plan);
      const free = isFreePlan(fees);
      // A cycle at 0 on a plan with a price for the other is not offered: taken as free, it
      // gave the paid plan with no end and no payment.
      if (!free && !billingCyclesOffered(fees).includes(billingType)) {
        const other = billingType === 'annual' ? 'monthly' : 'annual';
        throw new AppError(
          422,
          'billing_cycle_unavailable',
          `The ${plan.name} plan is not offered with ${billingType} billing: choose ${other} billing`,
        );
      }
      const amountCents = feeOf(plan, billingType);
      const paid = await paidSubscription(user, new Date());
      const target = { plan, billingType: free ? ('monthly' as const) : billingType };
      if (paid && isDowngradeOf({ plan: paid.plan, billingType: paid.row.billing_type }, target)) {
        await provider.cancelAtPeriodEnd(paid.row.provider_subscription_id);
        await subscriptions.setScheduledChange(user.id, {
          planId: plan.id,
          billingType: target.billingType,
        });
        return { url: `${back.site}/dashboard`, scheduledFor: paid.row.end_date };
      }
      if (free) {
        if (plan.slug === 'basic') await subscriptions.remove(user.id);
        else {
          // Only a payment starts a new quota period. A free plan is anchored at the start of
          // the period the user is in, so its counters (keyed by period start) carry on, and
          // it runs monthly: switching a free plan's cycle back and forth would otherwise
          // start a fresh annual allowance every month.
          const { period } = await quotas.entitlement(user);
          await subscriptions.upsert({
            userId: user.id,
            planId: plan.id,
            billingType: 'monthly',
            anchorDate: period.start,
            endDate: NO_END,
          });
        }
        return { url: `${back.site}/dashboard` };
      }
      const sessionId = randomUUID();
      // Opens this checkout's page alone, without a sign-in on this site (the caller's token is
      // kept by its own site); kept as a hash, spent when the checkout closes.
      const linkKey = randomToken(24);
      await payments.createCheckout({
        id: sessionId,
        provider: provider.name,
        user_id: user.id,
        plan_id: plan.id,
        billing_type: billingType,
        amount_cents: amountCents,
        currency: CURRENCY,
        status: 'open',
        created_at: new Date().toISOString(),
        success_url: back.success,
        cancel_url: back.cancel,
        link_key_hash: sha256(linkKey),
      });
      const { url } = await provider.createCheckout({
        sessionId,
        user,
        plan,
        billingType,
        amountCents,
        currency: CURRENCY,
        successUrl: back.success,
        cancelUrl: back.cancel,
        linkKey,
      });
      return { url: absolute(url) };
    },

    /** Keeps the current plan: drops a scheduled downgrade (or a cancel) before the period ends. */
    async undoScheduledChange(user: UserRow) {
      const paid = await paidSubscription(user, new Date());
      if (!paid || (!paid.row.scheduled_plan_id && !paid.row.cancel_at_period_end))
        throw new AppError(404, 'no_scheduled_change', 'Your subscription has no change to undo');
      await provider.resumeRenewal(paid.row.provider_subscription_id);
      await subscriptions.setScheduledChange(user.id, null);
    },

    async sandboxCheckout(user: UserRow, id: string): Promise<SandboxCheckout> {
      const checkout = await ownSandboxCheckout(user, id);
      const plan = await plans.findById(checkout.plan_id);
      return {
        id: checkout.id,
        plan: { _id: checkout.plan_id, name: plan?.name ?? '' },
        billingType: checkout.billing_type,
        amount: checkout.amount_cents,
        currency: checkout.currency,
        status: checkout.status,
        cancelUrl: forPage(checkout.cancel_url ?? absolute('/cancel')),
      };
    },

    /**
     * The owner of the open sandbox checkout `id` whose link carries `key`: the link stands for
     * its owner's sign-in on that checkout's page alone. 401 when the key is wrong, or the
     * checkout closed (paid) or too old.
     */
    async checkoutLinkOwner(id: string, key: string, now = new Date()): Promise<UserRow> {
      const checkout = await payments.findCheckout(id);
      const valid =
        checkout?.provider === 'sandbox' &&
        checkout.link_key_hash === sha256(key) &&
        checkout.status === 'open' &&
        !isStale(checkout, now);
      const owner = valid ? await deps.users.findById(checkout.user_id) : undefined;
      if (!owner)
        throw new AppError(
          401,
          'checkout_link_invalid',
          'This checkout link has been used or has expired. Start again from the plans.',
        );
      return owner;
    },

    /**
     * Pays a sandbox checkout with a test card: 4242… pays (through the same fulfilment as a
     * Stripe webhook), 4000 0000 0000 0002 is declined (402, the checkout stays open), anything
     * else is refused as invalid.
     */
    async sandboxPay(
      user: UserRow,
      id: string,
      card: { cardNumber: string; expiry: string; cvc: string; name: string },
      now = new Date(),
    ) {
      const checkout = await ownSandboxCheckout(user, id);
      if (checkout.status !== 'open' || isStale(checkout, now))
        throw new AppError(
          409,
          'checkout_closed',
          'This checkout is closed. Start again from the plans.',
        );
      const number = card.cardNumber.replace(/[\s-]/g, '');
      if (number !== SANDBOX_CARDS.success && number !== SANDBOX_CARDS.declined)
        throw invalidCard('In test mode only the test cards work: 4242 4242 4242 4242 pays');
      if (!expiryIsValid(card.expiry, now)) throw invalidCard('The expiry date is not valid');
      if (!/^\d{3,4}$/.test(card.cvc.trim())) throw invalidCard('The security code is not valid');
      // Declined: the checkout stays open, so the user can try another card on the same page.
      if (number === SANDBOX_CARDS.declined)
        throw new AppError(
          402,
          'card_declined',
          'Your card was declined and nothing was charged. Try another card.',
        );
      if (!(await payments.closeCheckout(id, 'completed')))
        throw new AppError(409, 'checkout_closed', 'This checkout was already paid');
      const applied = await fulfil(deps.db, {
        userId: user.id,
        planId: checkout.plan_id,
        billingType: checkout.billing_type,
        provider: 'sandbox',
        providerPaymentId: `sandbox_${checkout.id}`,
        amountCents: checkout.amount_cents,
        currency: checkout.currency,
        card: { brand: 'visa', last4: number.slice(-4) },
        receiptUrl: null,
        billing: { name: card.name, email: user.email },
      });
      if (applied) deps.onFulfilled?.('sandbox');
      return { redirect: forPage(checkout.success_url ?? absolute('/success')) };
    },

    /** Cancels at the end of the paid period: no renewal, the plan's quotas until then. */
    async cancelSubscription(user: UserRow) {
      const subscription = await subscriptions.findByUser(user.id);
      if (!subscription || new Date(subscription.end_date) <= new Date())
        throw new AppError(404, 'no_subscription', 'You have no subscription to cancel');
      // A plan an admin gave ends on its date by itself: nothing renews, so nothing to cancel.
      if ((await payments.providerOfPeriodEnding(user.id, subscription.end_date)) === 'admin')
        throw new AppError(
          409,
          'plan_granted',
          'This plan was given by an administrator and does not renew: it ends on its date',
        );
      await provider.cancelAtPeriodEnd(subscription.provider_subscription_id);
      await subscriptions.setCancelAtPeriodEnd(user.id, true);
    },

    async listForUser(user: UserRow): Promise<Payment[]> {
      return (await payments.listForUser(user.id)).map(toApiPayment);
    },

    async listForAdmin(
      filter: PaymentFilter,
    ): Promise<{ payments: AdminPayment[]; total: number }> {
      const rows = await payments.listForAdmin(filter);
      return {
        payments: rows.map((row) => ({
          ...toApiPayment(row),
          userId: { name: row.user_name, email: row.user_email, country: row.user_country },
        })),
        total: rows.reduce((sum, row) => sum + row.amount_cents, 0),
      };
    },
  };
}

export type PaymentService = ReturnType<typeof paymentService>;
