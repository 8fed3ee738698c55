import {
  DEFAULT_PLAN_FEATURES,
  DEFAULT_PLANS,
  SERVICES,
  type Plan,
  type PlanBody,
  type SubscriptionStatus,
} from '@refract/contracts';
import type { PaymentsRepository } from '../db/repositories/payments-repository.js';
import type { UserRow } from '../db/repositories/users-repository.js';
import { AppError, notFound } from '../lib/app-error.js';
import { cachedBody, type CachedBody } from '../lib/http-cache.js';
import type {
  PlanInput,
  PlansRepository,
  PlanWithQuotas,
} from '../db/repositories/plans-repository.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { SubscriptionsRepository } from '../db/repositories/subscriptions-repository.js';
import type { SettingsRepository } from '../db/repositories/settings-repository.js';
import { applyDueChange } from './payments/plan-changes.js';
import { checkPlanSizes, planFileMaxBytes, type FileCeilings } from './file-limits.js';

/** Plans the quota rules depend on: Basic is everyone's fallback, admin is the admins' plan. */
const PROTECTED_SLUGS = new Set(['basic', 'admin']);

const cents = (dollars: number) => Math.round(dollars * 100);

/**
 * The API's plan: fees in dollars, every service listed, file sizes as users get them (within
 * the server's ceilings, which an operator may have lowered since the plan was saved).
 */
export function toApiPlan(plan: PlanWithQuotas, ceilings: FileCeilings): Plan {
  const files = planFileMaxBytes(plan, ceilings);
  const features = JSON.parse(plan.features) as string[];
  return {
    _id: plan.id,
    name: plan.name,
    monthlyFee: plan.monthly_fee_cents / 100,
    annualFee: plan.annual_fee_cents / 100,
    features: features.length > 0 ? features : DEFAULT_PLAN_FEATURES,
    archived: plan.archived === 1,
    services: SERVICES.map((name) => {
      const q = plan.quotas.find((row) => row.service === name);
      return { name, monthlyQuota: q?.monthly_quota ?? 0, annualQuota: q?.annual_quota ?? 0 };
    }),
    batchMaxFiles: plan.batch_max_files,
    batchMaxBytes: Number(plan.batch_max_bytes),
    imageMaxBytes: files.image,
    mediaMaxBytes: files.media,
  };
}

function toInput(body: PlanBody): PlanInput {
  const features = body.features.filter((f) => f.length > 0);
  return {
    name: body.name,
    monthlyFeeCents: cents(body.monthlyFee),
    annualFeeCents: cents(body.annualFee),
    features: features.length > 0 ? features : DEFAULT_PLAN_FEATURES,
    batchMaxFiles: body.batchMaxFiles,
    batchMaxBytes: body.batchMaxBytes,
    imageMaxBytes: body.imageMaxBytes,
    mediaMaxBytes: body.mediaMaxBytes,
    quotas: body.services.map((s) => ({
      service: s.name,
      monthlyQuota: s.monthlyQuota,
      annualQuota: s.annualQuota,
    })),
  };
}

const nameTaken = (name: string) =>
  new AppError(409, 'plan_name_taken', `A plan named "${name}" already exists`);

export function planService(
  plans: PlansRepository,
  subscriptions: SubscriptionsRepository,
  settings: SettingsRepository,
  payments: PaymentsRepository,
  ceilings: FileCeilings,
) {
  const apiPlan = (plan: PlanWithQuotas) => toApiPlan(plan, ceilings);
  // The plans page's body, serialised once per list the (cached) repository hands out: the
  // same list object comes back until a plan changes.
  const listBodies = new WeakMap<PlanWithQuotas[], CachedBody>();

  async function find(id: string, { includeHidden }: { includeHidden: boolean }) {
    const plan = await plans.findById(id);
    if (!plan || ((plan.hidden || plan.archived) && !includeHidden)) throw notFound('No such plan');
    return plan;
  }

  return {
    /** Seeds the default plans once, into an empty database. */
    async seedDefaults(): Promise<void> {
      if ((await settings.get('plans_seeded')) || (await plans.count()) > 0) return;
      for (const [position, p] of DEFAULT_PLANS.entries()) {
        try {
          await plans.create({
            slug: p.slug,
            name: p.name,
            monthlyFeeCents: p.monthlyFeeCents,
            annualFeeCents: p.annualFeeCents,
            features: DEFAULT_PLAN_FEATURES,
            hidden: p.hidden,
            position,
            batchMaxFiles: p.batchMaxFiles,
            batchMaxBytes: p.batchMaxBytes,
            imageMaxBytes: p.imageMaxBytes,
            mediaMaxBytes: p.mediaMaxBytes,
            quotas: SERVICES.map((service) => ({
              service,
              monthlyQuota: p.monthlyQuota,
              annualQuota: p.annualQuota,
            })),
          });
        } catch (err) {
          // Another instance seeding at the same moment got there first.
          if (!isUniqueViolation(err)) throw err;
        }
      }
      await settings.set('plans_seeded', new Date().toISOString());
    },

    async list({ includeHidden }: { includeHidden: boolean }): Promise<Plan[]> {
      return (await plans.list({ includeHidden })).map(apiPlan);
    },

    /** The list as a JSON body with its ETag, built once per version of the plans. */
    async listBody({ includeHidden }: { includeHidden: boolean }): Promise<CachedBody> {
      const rows = await plans.list({ includeHidden });
      let cached = listBodies.get(rows);
      if (!cached) {
        cached = cachedBody(rows.map(apiPlan));
        listBodies.set(rows, cached);
      }
      return cached;
    },

    async get(id: string, { includeHidden }: { includeHidden: boolean }): Promise<Plan> {
      return apiPlan(await find(id, { includeHidden }));
    },

    /**
     * The user's subscription with its plan, whether still active or lapsed; without one, the
     * free plan they are on (Basic, or the admins' plan), with no end date.
     */
    async subscriptionStatus(user: Pick<UserRow, 'id' | 'is_admin'>): Promise<SubscriptionStatus> {
      const now = new Date();
      const subscription = await applyDueChange(
        plans,
        subscriptions,
        await subscriptions.findByUser(user.id),
        now,
      );
      const plan = subscription && (await plans.findById(subscription.plan_id));
      if (!subscription || !plan) {
        const free = await plans.findBySlug(user.is_admin ? 'admin' : 'basic');
        if (!free) return { subscription: null };
        return {
          subscription: {
            planDetails: apiPlan(free),
            userDetails: { subscriptionEndDate: null },
            billingType: 'free',
            cancelAtPeriodEnd: false,
            granted: false,
            scheduledChange: null,
            status: 'active',
          },
        };
      }
      const scheduled =
        subscription.scheduled_plan_id && (await plans.findById(subscription.scheduled_plan_id));
      const givenBy = await payments.providerOfPeriodEnding(user.id, subscription.end_date);
      return {
        subscription: {
          planDetails: apiPlan(plan),
          userDetails: { subscriptionEndDate: subscription.end_date },
          billingType: subscription.billing_type,
          cancelAtPeriodEnd: subscription.cancel_at_period_end === 1,
          granted: givenBy === 'admin',
          scheduledChange: scheduled
            ? {
                plan: { _id: scheduled.id, name: scheduled.name },
                billingType: subscription.scheduled_billing_type ?? ('monthly' as const),
              }
            : null,
          status:
            new Date(subscription.end_date) > now ? ('active' as const) : ('expired' as const),
        },
      };
    },

    async create(body: PlanBody): Promise<Plan> {
      checkPlanSizes(body, ceilings);
      try {
        const id = await plans.create(toInput(body));
        return apiPlan((await plans.findById(id))!);
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(body.name);
        throw err;
      }
    },

    async update(id: string, body: PlanBody): Promise<Plan> {
      checkPlanSizes(body, ceilings);
      try {
        if (!(await plans.update(id, toInput(body)))) throw notFound('No such plan');
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(body.name);
        throw err;
      }
      return apiPlan((await plans.findById(id))!);
    },

    /** Deletes a plan nothing refers to; archives one with history or subscribers. */
    async remove(id: string): Promise<{ archived: Plan | null }> {
      const plan = await find(id, { includeHidden: true });
      if (plan.slug && PROTECTED_SLUGS.has(plan.slug)) {
        throw new AppError(
          409,
          'plan_protected',
          `The ${plan.name} plan is needed by the quota rules and cannot be deleted`,
        );
      }
      const now = new Date();
      // Payments, checkouts and current subscribers keep the plan: it is archived instead.
      if (await plans.isReferenced(id, now)) {
        await plans.archive(id);
        return { archived: apiPlan((await plans.findById(id))!) };
      }
      // Lapsed subscriptions still point at the plan; they mean Basic now, so they go with it.
      await subscriptions.deleteLapsedForPlan(id, now);
      await plans.delete(id);
      return { archived: null };
    },
  };
}

export type PlanService = ReturnType<typeof planService>;
