import type { PaymentsRepository } from '../db/repositories/payments-repository.js';
import type { PlansRepository } from '../db/repositories/plans-repository.js';
import type { SubscriptionsRepository } from '../db/repositories/subscriptions-repository.js';
import type { UsageRepository } from '../db/repositories/usage-repository.js';
import {
  changingAdminRoles,
  type UserRow,
  type UsersRepository,
} from '../db/repositories/users-repository.js';
import type { Kysely } from 'kysely';
import type { AdminGrant, AdminUserChange } from '@refract/contracts';
import type { Database } from '../db/schema.js';
import { AppError, notFound } from '../lib/app-error.js';
import { fulfil } from './payments/fulfilment.js';
import { addMonths } from './quota-period.js';

export function adminService(
  users: UsersRepository,
  plans: PlansRepository,
  subscriptions: SubscriptionsRepository,
  usage: UsageRepository,
  payments: PaymentsRepository,
  /** The sandbox takes payments although NODE_ENV is production (shown on the dashboard). */
  sandboxInProduction: boolean,
  db: Kysely<Database>,
) {
  async function target(id: string) {
    const user = await users.findById(id);
    if (!user) throw notFound('No such user');
    return user;
  }

  return {
    /**
     * A role change or a suspension. The last admin who can sign in cannot be demoted or
     * suspended (nobody could manage the site after), and an admin cannot suspend themselves.
     */
    async changeUser(actor: UserRow, id: string, change: AdminUserChange) {
      if (change.suspended && id === actor.id)
        throw new AppError(409, 'last_admin', 'You cannot suspend your own account');
      // Read, count and write under one lock: see changingAdminRoles.
      await changingAdminRoles(db, async (locked) => {
        const user = await locked.findById(id);
        if (!user) throw notFound('No such user');
        const losesAdmin =
          user.is_admin === 1 &&
          user.suspended_at === null &&
          (change.role === 'user' || change.suspended === true);
        if (losesAdmin && (await locked.countActiveAdmins()) <= 1)
          throw new AppError(409, 'last_admin', 'The last administrator cannot lose that role');
        if (change.role !== undefined) await locked.setAdmin(id, change.role === 'admin');
        if (change.suspended !== undefined) await locked.setSuspended(id, change.suspended);
      });
    },

    /** A plan for some months at no charge: a zero-amount payment by `admin`, in the history. */
    async grantPlan(actor: UserRow, id: string, grant: AdminGrant) {
      const user = await target(id);
      const plan = await plans.findById(grant.planId);
      if (!plan || plan.hidden || plan.archived) throw notFound('No such plan');
      const start = new Date();
      // A plan the user pays for through the provider renews on its own, and its next payment
      // would put that plan back over the gift: they would be charged, and lose the gift.
      const current = await subscriptions.findByUser(user.id);
      if (
        current?.provider_subscription_id &&
        current.cancel_at_period_end === 0 &&
        new Date(current.end_date) > start
      )
        throw new AppError(
          409,
          'subscription_renews',
          'This user pays for a plan that renews; its next payment would replace the gift. They can cancel it first, then grant the plan.',
        );
      await fulfil(db, {
        userId: user.id,
        planId: plan.id,
        billingType: 'monthly',
        provider: 'admin',
        providerPaymentId: `admin_${crypto.randomUUID()}`,
        amountCents: 0,
        currency: 'usd',
        card: { brand: null, last4: null },
        receiptUrl: null,
        billing: { name: actor.name, email: actor.email },
        period: { start, end: addMonths(start, grant.months) },
      });
      return { plan: plan.name };
    },

    async dashboardStats() {
      const now = new Date();
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const [total, activeByPlan, featureUsage, developer, business, cents] = await Promise.all([
        users.count(),
        subscriptions.countActiveByPlan(now),
        usage.totalsByService(),
        plans.findBySlug('developer'),
        plans.findBySlug('business'),
        payments.sumSince(monthStart.toISOString()),
      ]);
      const activeOn = (id?: string) => (id ? (activeByPlan.get(id) ?? 0) : 0);
      return {
        userStats: {
          total,
          developerPlan: activeOn(developer?.id),
          businessPlan: activeOn(business?.id),
        },
        activeSubscriptions: [...activeByPlan.values()].reduce((a, b) => a + b, 0),
        featureUsage,
        // Dollars collected in the current calendar month (UTC).
        monthlyRevenue: cents / 100,
        paymentsSandboxInProduction: sandboxInProduction,
      };
    },

    async listUsers(search: string | undefined, page: number, pageSize: number) {
      const now = new Date().toISOString();
      const { rows, total } = await users.listForAdmin({ search, page, pageSize });
      const [basic, admin] = await Promise.all([
        plans.findBySlug('basic'),
        plans.findBySlug('admin'),
      ]);
      return {
        users: rows.map((r) => {
          const subscription =
            r.plan_name && r.billing_type && r.end_date && r.end_date > now
              ? { plan: r.plan_name, billingType: r.billing_type, endDate: r.end_date }
              : null;
          // As quota-service's entitlement chooses the plan whose quotas apply.
          const currentPlan = r.is_admin ? admin : subscription ? undefined : basic;
          return {
            _id: r.id,
            name: r.name,
            email: r.email,
            isAdmin: r.is_admin === 1,
            currentPlan: { name: currentPlan?.name ?? subscription!.plan },
            role: r.is_admin ? ('admin' as const) : ('user' as const),
            suspended: r.suspended_at !== null,
            subscription,
            country: r.country || null,
            createdAt: r.created_at,
          };
        }),
        total,
      };
    },
  };
}

export type AdminService = ReturnType<typeof adminService>;
