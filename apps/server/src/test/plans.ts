import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { plansRepository } from '../db/repositories/plans-repository.js';
import { subscriptionsRepository } from '../db/repositories/subscriptions-repository.js';
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
  }: { billingType?: 'monthly' | 'annual'; anchor?: Date; end?: Date } = {},
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
  });
  return plan;
}

/** A new user on Business (unlimited uses), for tests that are about something else than quotas. */
export async function registerSubscriber(t: TestApp) {
  const user = await registerUser(t.app);
  await subscribe(t.database.db, user.user._id, 'business');
  return user;
}
