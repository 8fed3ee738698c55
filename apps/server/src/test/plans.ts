import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { plansRepository } from '../db/repositories/plans-repository.js';
import { subscriptionsRepository } from '../db/repositories/subscriptions-repository.js';
import { usersRepository } from '../db/repositories/users-repository.js';
import { usageRepository } from '../db/repositories/usage-repository.js';
import { quotaService } from '../services/quota-service.js';
import type { Service } from '@refract/contracts';
import { registerUser } from './accounts.js';
import type { TestApp } from './test-app.js';

/** Gives a user a subscription directly (payments do this in the app). */
export async function subscribe(
  db: Kysely<Database>,
  userId: string,
  slug: 'developer' | 'business',
  {
    billingType = 'monthly',
    anchor = new Date(),
    end,
    providerSubscriptionId,
  }: {
    billingType?: 'monthly' | 'annual';
    anchor?: Date;
    end?: Date;
    /** Paid through the provider, renewing (Stripe's id). */
    providerSubscriptionId?: string;
  } = {},
) {
  const plan = await plansRepository(db).findBySlug(slug);
  if (!plan) throw new Error(`no ${slug} plan`);
  const defaultEnd = new Date(
    anchor.getTime() + (billingType === 'annual' ? 366 : 31) * 86_400_000,
  );
  await subscriptionsRepository(db).upsert({
    userId,
    planId: plan.id,
    billingType,
    anchorDate: anchor,
    endDate: end ?? defaultEnd,
    providerSubscriptionId,
  });
  return plan;
}

/** A new user on Business (unlimited uses), for tests that are about something else than quotas. */
export async function registerSubscriber(t: TestApp) {
  const user = await registerUser(t.app);
  await subscribe(t.database.db, user.user._id, 'business');
  return user;
}

/**
 * Charges uses as a server run would (a use tracked with POST /api/user/track would be taken
 * by the next run instead), for tests about what the uses lead to.
 */
export async function spend(db: Kysely<Database>, userId: string, service: Service, count = 1) {
  const user = await usersRepository(db).findById(userId);
  if (!user) throw new Error(`no user ${userId}`);
  const quotas = quotaService(
    plansRepository(db),
    subscriptionsRepository(db),
    usageRepository(db),
  );
  const reservation = await quotas.reserve(user, service, count);
  await reservation.confirm();
  return reservation.status;
}
