import type { PaymentsRepository } from '../db/repositories/payments-repository.js';
import type { PlansRepository } from '../db/repositories/plans-repository.js';
import type { SubscriptionsRepository } from '../db/repositories/subscriptions-repository.js';
import type { UsageRepository } from '../db/repositories/usage-repository.js';
import type { UsersRepository } from '../db/repositories/users-repository.js';

const PAGE_SIZE = 20;

export function adminService(
  users: UsersRepository,
  plans: PlansRepository,
  subscriptions: SubscriptionsRepository,
  usage: UsageRepository,
  payments: PaymentsRepository,
  /** The sandbox takes payments although NODE_ENV is production (shown on the dashboard). */
  sandboxInProduction = false,
) {
  return {
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

    async listUsers(search: string | undefined, page: number) {
      const now = new Date().toISOString();
      const { rows, total } = await users.listForAdmin({ search, page, pageSize: PAGE_SIZE });
      return {
        users: rows.map((r) => ({
          _id: r.id,
          name: r.name,
          email: r.email,
          role: r.is_admin ? ('admin' as const) : ('user' as const),
          subscription:
            r.plan_name && r.billing_type && r.end_date && r.end_date > now
              ? { plan: r.plan_name, billingType: r.billing_type, endDate: r.end_date }
              : null,
          country: r.country || 'NA',
          createdAt: r.created_at,
        })),
        page,
        pageSize: PAGE_SIZE,
        total,
      };
    },
  };
}

export type AdminService = ReturnType<typeof adminService>;
