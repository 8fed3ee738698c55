import { randomUUID } from 'node:crypto';
import {
  SERVICES,
  UNLIMITED,
  type QuotaStatus,
  type Service,
  type ToolEntry,
  type UserStats,
} from '@refract/contracts';
import { planFileMaxBytes, toolFileLimit, type FileCeilings } from './file-limits.js';
import { AppError } from '../lib/app-error.js';
import { quotaHeaders } from '../lib/quota-headers.js';
import type { UserRow } from '../db/repositories/users-repository.js';
import type { PlansRepository, PlanWithQuotas } from '../db/repositories/plans-repository.js';
import type {
  SubscriptionRow,
  SubscriptionsRepository,
} from '../db/repositories/subscriptions-repository.js';
import type { Charge, UsageRepository } from '../db/repositories/usage-repository.js';
import type { OwedWrites } from '../lib/owed-writes.js';
import { billingPeriod, calendarMonth, type Period } from './quota-period.js';
import { applyDueChange } from './payments/plan-changes.js';
import { accountFigures } from './account-figures.js';

/** What a user may use now: their plan, the current period and a quota per service. */
export interface Entitlement {
  plan: PlanWithQuotas;
  subscription: SubscriptionRow | null;
  period: Period;
  quotaFor(service: Service): number;
}

/** A charge held while a tool runs: confirm it when the tool succeeds, release it when it fails. */
export interface Reservation {
  status: QuotaStatus;
  /** With the user and service, names the counter the charge is held on (see `settle`). */
  periodStart: string;
  /** Paid by a use tracked a moment ago (`track`): the counter does not move for it. */
  tracked: boolean;
  confirm(): Promise<void>;
  release(): Promise<void>;
}

/**
 * How long a tracked use waits for the server run of the same service that the earlier client
 * makes right after tracking it (its tools track, then call the server).
 */
export const TRACKED_USE_MS = 10 * 60_000;

function remaining(quota: number, used: number): number {
  return quota === UNLIMITED ? UNLIMITED : Math.max(0, quota - used);
}

export function quotaService(
  plans: PlansRepository,
  subscriptions: SubscriptionsRepository,
  usage: UsageRepository,
  clock: () => Date = () => new Date(),
  /** Where a give-back waits when the database cannot take it now (always, in the app). */
  owed?: OwedWrites,
  /** The server's largest files; without them (tests of quotas alone), the plans' own. */
  ceilings: FileCeilings = { image: Infinity, media: Infinity },
) {
  const remembered = accountFigures();

  async function planBySlug(slug: string): Promise<PlanWithQuotas> {
    const plan = await plans.findBySlug(slug);
    if (!plan) throw new Error(`The ${slug} plan is missing; it is seeded at start-up`);
    return plan;
  }

  /**
   * Admins are unlimited. An active subscription gives its plan, over the current month of
   * its billing cycle (annual: its year, with the annual quotas). Anyone else has Basic over
   * the calendar month in UTC.
   */
  async function entitlement(user: UserRow, now = clock()): Promise<Entitlement> {
    const subscription = await remembered.subscription(
      user,
      now,
      async () =>
        (await applyDueChange(
          plans,
          subscriptions,
          await subscriptions.findByUser(user.id),
          now,
        )) ?? null,
    );
    const active = subscription && new Date(subscription.end_date) > now ? subscription : null;
    const subscribedPlan =
      active && !user.is_admin ? await plans.findById(active.plan_id) : undefined;
    const plan = user.is_admin
      ? await planBySlug('admin')
      : (subscribedPlan ?? (await planBySlug('basic')));
    const annual = subscribedPlan !== undefined && active?.billing_type === 'annual';
    const period = subscribedPlan
      ? billingPeriod(new Date(active!.anchor_date), annual ? 12 : 1, now)
      : calendarMonth(now);
    return {
      plan,
      subscription: subscribedPlan ? active : null,
      period,
      quotaFor(service) {
        if (user.is_admin) return UNLIMITED;
        const row = plan.quotas.find((q) => q.service === service);
        return row ? (annual ? row.annual_quota : row.monthly_quota) : 0;
      },
    };
  }

  /** The figures a quota answer carries, for `used` uses of the service in the period. */
  function standing(e: Entitlement, service: Service, used: number): QuotaStatus {
    const quota = e.quotaFor(service);
    return {
      service,
      used,
      quota,
      remaining: remaining(quota, used),
      resetsAt: e.period.end.toISOString(),
    };
  }

  async function usedNow(user: UserRow, e: Entitlement, service: Service) {
    return (await usage.usedInPeriod(user.id, e.period.start.toISOString())).get(service) ?? 0;
  }

  function quotaExceeded(status: QuotaStatus) {
    return new AppError(
      403,
      'quota_exceeded',
      `You have used all ${status.quota} uses of ${status.service} in this period. Upgrade your plan for more.`,
      quotaHeaders(status),
      status,
    );
  }

  /**
   * Holds `count` uses of the service for a run: taken from uses the user tracked in the last
   * minutes when there are that many (already charged), else charged now within the quota
   * (403 quota_exceeded when it is spent).
   */
  async function reserve(user: UserRow, service: Service, count: number): Promise<Reservation> {
    const e = await entitlement(user);
    const periodStart = e.period.start.toISOString();
    const tracked = await usage.takeTracked(user.id, service, count, clock().toISOString());
    const used = tracked
      ? await usedNow(user, e, service)
      : await usage.tryIncrement(user.id, service, periodStart, count, e.quotaFor(service));
    if (used === undefined)
      throw quotaExceeded(standing(e, service, await usedNow(user, e, service)));
    const charge = { userId: user.id, service, periodStart, count, tracked };
    let settled = false;
    const settleOnce = async (outcome: 'confirm' | 'release') => {
      if (settled) return;
      settled = true;
      try {
        await settle(charge, outcome);
      } catch (err) {
        settled = false; // a confirm that failed may still be given back
        throw err;
      }
    };
    return {
      status: standing(e, service, used),
      periodStart,
      tracked,
      confirm: () => settleOnce('confirm'),
      release: () => settleOnce('release'),
    };
  }

  /**
   * Confirms or gives back a held charge. A job may end in another process than the one
   * that reserved it, so the charge is named by its fields rather than held in memory. A
   * give-back the database cannot take now is owed (lib/owed-writes): it lands once the
   * database is back, so a user answered 503 during an outage is not charged.
   */
  async function settle(charge: Charge, outcome: 'confirm' | 'release') {
    if (outcome === 'confirm') {
      await usage.settle(charge, 'confirm');
      return;
    }
    const giveBack = () => usage.settle(charge, 'release');
    if (!owed) await giveBack();
    else
      await owed.run(
        `give back a use of ${charge.service} to user ${charge.userId} (${randomUUID()})`,
        giveBack,
      );
  }

  return {
    entitlement,
    reserve,
    settle,

    /**
     * Charges uses done in the browser (POST /api/user/track), at once and within the quota
     * (403 quota_exceeded when fewer are left). Each waits `TRACKED_USE_MS` for a server run
     * of the service by the same user, which takes it instead of charging again.
     */
    async track(user: UserRow, service: Service, count: number): Promise<QuotaStatus> {
      const e = await entitlement(user);
      const now = clock();
      const expiresAt = new Date(now.getTime() + TRACKED_USE_MS).toISOString();
      const charge = { userId: user.id, service, periodStart: e.period.start.toISOString(), count };
      const used = await usage.track(charge, e.quotaFor(service), now.toISOString(), expiresAt);
      if (used === undefined)
        throw quotaExceeded(standing(e, service, await usedNow(user, e, service)));
      return standing(e, service, used);
    },

    /** The largest file this user may send to this tool now (413 file_too_large past it). */
    async fileLimit(user: UserRow, tool: ToolEntry): Promise<number> {
      return toolFileLimit((await entitlement(user)).plan, tool, ceilings);
    },

    /** The largest file this user may send, by kind of tool. */
    async fileMaxBytes(user: UserRow) {
      return planFileMaxBytes((await entitlement(user)).plan, ceilings);
    },

    async stats(user: UserRow): Promise<UserStats> {
      const e = await entitlement(user);
      const periodStart = e.period.start.toISOString();
      const used = await remembered.used(user, periodStart, () =>
        usage.usedInPeriod(user.id, periodStart),
      );
      const rows = SERVICES.map((service) => {
        const quota = e.quotaFor(service);
        const u = used.get(service) ?? 0;
        return { service, used: u, quota, remaining: remaining(quota, u) };
      });
      const limited = rows.filter((r) => r.quota !== UNLIMITED);
      return {
        imagesProcessed: rows.reduce((sum, r) => sum + r.used, 0),
        remainingImages:
          limited.length === 0 ? UNLIMITED : limited.reduce((sum, r) => sum + r.remaining, 0),
        subscription: e.subscription
          ? {
              plan: { name: e.plan.name },
              billingType: e.subscription.billing_type,
              endDate: e.subscription.end_date,
            }
          : { plan: { name: e.plan.name }, billingType: 'free', endDate: null },
        plan: { _id: e.plan.id, name: e.plan.name },
        usage: rows,
        batch: { maxFiles: e.plan.batch_max_files, maxBytes: Number(e.plan.batch_max_bytes) },
        fileMaxBytes: planFileMaxBytes(e.plan, ceilings),
        periodStart: e.period.start.toISOString(),
        periodEnd: e.period.end.toISOString(),
      };
    },
  };
}

export type QuotaService = ReturnType<typeof quotaService>;
