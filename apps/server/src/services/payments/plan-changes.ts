import { isDowngrade, isFreePlan, monthlyRate, type BillingType } from '@refract/contracts';
import type { PlanRow, PlansRepository } from '../../db/repositories/plans-repository.js';
import type {
  SubscriptionRow,
  SubscriptionsRepository,
} from '../../db/repositories/subscriptions-repository.js';

/** A free plan other than Basic has no end; this date stands for "never". */
export const NO_END = new Date('9999-12-31T00:00:00.000Z');

export const feeOf = (plan: PlanRow, billingType: BillingType) =>
  billingType === 'annual' ? plan.annual_fee_cents : plan.monthly_fee_cents;

/** A plan row's fees as the contracts' plan rules take them (in cents). */
export const feesOf = (plan: PlanRow) => ({
  monthlyFee: plan.monthly_fee_cents,
  annualFee: plan.annual_fee_cents,
});

/** The downgrade rule of the contracts, on database rows. */
export const isDowngradeOf = (
  current: { plan: PlanRow; billingType: BillingType },
  target: { plan: PlanRow; billingType: BillingType },
) =>
  isDowngrade(
    {
      planId: current.plan.id,
      monthlyFee: monthlyRate(feesOf(current.plan)),
      billingType: current.billingType,
    },
    {
      planId: target.plan.id,
      monthlyFee: monthlyRate(feesOf(target.plan)),
      billingType: target.billingType,
    },
  );

/**
 * The period rollover of a scheduled downgrade, applied the first time the subscription is
 * read after its end: Basic removes it; another free plan (every fee 0) starts with no end; a
 * paid plan becomes the subscription to renew (lapsed until its first period is bought: no
 * payment, no paid quotas), even if the cycle chosen has since been set to 0. Returns the
 * subscription as it now is.
 */
export async function applyDueChange(
  plans: PlansRepository,
  subscriptions: SubscriptionsRepository,
  subscription: SubscriptionRow | undefined,
  now: Date,
): Promise<SubscriptionRow | undefined> {
  if (!subscription?.scheduled_plan_id || new Date(subscription.end_date) > now)
    return subscription;
  const target = await plans.findById(subscription.scheduled_plan_id);
  const billingType = subscription.scheduled_billing_type ?? 'monthly';
  const end = new Date(subscription.end_date);
  const next =
    !target || target.slug === 'basic'
      ? null
      : isFreePlan(feesOf(target))
        ? { planId: target.id, billingType: 'monthly' as const, anchorDate: end, endDate: NO_END }
        : { planId: target.id, billingType, anchorDate: end, endDate: end };
  await subscriptions.applyDueChange(subscription.user_id, now, next);
  return subscriptions.findByUser(subscription.user_id);
}
