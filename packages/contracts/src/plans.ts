import { z } from 'zod';
import { requireFields } from './field-rules.js';
import { SERVICES, type Service } from './services.js';
import { GB, MB } from './sizes.js';

export const BILLING_TYPES = ['monthly', 'annual'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];

/** -1 means unlimited, for monthly and annual quotas alike. */
export const UNLIMITED = -1;

/** A subscription's billing as the API describes it: `free` is the plan of users who pay nothing. */
export const SUBSCRIPTION_BILLING_TYPES = [...BILLING_TYPES, 'free'] as const;
export type SubscriptionBillingType = (typeof SUBSCRIPTION_BILLING_TYPES)[number];

/** The features line a plan shows when none are given. */
export const DEFAULT_PLAN_FEATURES = ['All services included'];

const money = z.number().finite().min(0, 'must be 0 or more').max(100_000);
const quota = z
  .number()
  .int('must be a whole number')
  .min(-1, 'must be -1 (unlimited) or more')
  .max(1_000_000);

export const planServiceSchema = z.object({
  name: z.enum(SERVICES),
  monthlyQuota: quota,
  annualQuota: quota,
});

/** The plan as the API shows it: fees in dollars (`monthlyFee: 4.99`). */
export const planSchema = z.object({
  _id: z.string(),
  name: z.string(),
  monthlyFee: z.number(),
  annualFee: z.number(),
  features: z.array(z.string()),
  /** No longer offered (only admins see it); kept for history and current subscribers. */
  archived: z.boolean(),
  services: z.array(planServiceSchema),
  /** How many files one batch may hold, and how many bytes in all. */
  batchMaxFiles: z.number().int(),
  batchMaxBytes: z.number().int(),
  /**
   * The largest file one upload may hold, by kind of tool, as the plan promises it. What a user
   * may send is this, within the server's own ceiling and each image tool's own limit
   * (`GET /api/formats`, `fileMaxBytes` in `/api/user/stats`).
   */
  imageMaxBytes: z.number().int(),
  mediaMaxBytes: z.number().int(),
});
export type Plan = z.infer<typeof planSchema>;

/** Every service exactly once, in any order. */
const planServicesSchema = z
  .array(planServiceSchema)
  .superRefine((services, ctx) => {
    const names = services.map((s) => s.name);
    for (const service of SERVICES) {
      if (!names.includes(service))
        ctx.addIssue({ code: 'custom', message: `is missing ${service}` });
    }
    if (new Set(names).size !== names.length) {
      ctx.addIssue({ code: 'custom', message: 'lists a service twice' });
    }
  })
  .meta({
    description: 'Every service exactly once, in any order',
    minItems: SERVICES.length,
    maxItems: SERVICES.length,
    allOf: SERVICES.map((name) => ({
      contains: { properties: { name: { const: name } }, required: ['name'] },
    })),
  });

/** Create and update. */
export const planBodySchema = z.object({
  name: z.string().trim().min(1, 'is required').max(60),
  monthlyFee: money,
  annualFee: money,
  features: z.array(z.string().trim().max(200)).max(30).default([]),
  services: planServicesSchema,
  /** Omitted: a new plan gets Basic's limits, an updated plan keeps its own. */
  batchMaxFiles: z.number().int('must be a whole number').min(1).max(1000).optional(),
  batchMaxBytes: z
    .number()
    .int('must be a whole number')
    .min(MB)
    .max(1000 * GB)
    .optional(),
  /** Omitted: as batches. Above the server's ceiling: 400 (plan-service). */
  imageMaxBytes: z
    .number()
    .int('must be a whole number')
    .min(MB)
    .max(1000 * GB)
    .optional(),
  mediaMaxBytes: z
    .number()
    .int('must be a whole number')
    .min(MB)
    .max(1000 * GB)
    .optional(),
});
export type PlanBody = z.infer<typeof planBodySchema>;

export interface DefaultPlan {
  slug: 'basic' | 'developer' | 'business' | 'admin';
  name: string;
  monthlyFeeCents: number;
  annualFeeCents: number;
  monthlyQuota: number;
  annualQuota: number;
  hidden: boolean;
  batchMaxFiles: number;
  batchMaxBytes: number;
  imageMaxBytes: number;
  mediaMaxBytes: number;
}

/**
 * Images as before plans had file sizes: 100 MB, the largest image tool's own limit, so each
 * image tool keeps its own. Audio and video by plan: a minute of phone video at 1080p is about
 * 130 MB, at 4K about 350 MB.
 */
export const DEFAULT_IMAGE_MAX_BYTES = 100 * MB;
export const DEFAULT_MEDIA_MAX_BYTES = 100 * MB;

/** Seeded once into an empty database. */
export const DEFAULT_PLANS: readonly DefaultPlan[] = [
  {
    slug: 'basic',
    imageMaxBytes: DEFAULT_IMAGE_MAX_BYTES,
    mediaMaxBytes: DEFAULT_MEDIA_MAX_BYTES,
    batchMaxFiles: 5,
    batchMaxBytes: 250 * MB,
    name: 'Basic',
    monthlyFeeCents: 0,
    annualFeeCents: 0,
    monthlyQuota: 3,
    annualQuota: 36,
    hidden: false,
  },
  {
    slug: 'developer',
    imageMaxBytes: DEFAULT_IMAGE_MAX_BYTES,
    mediaMaxBytes: GB,
    batchMaxFiles: 20,
    batchMaxBytes: GB,
    name: 'Developer',
    monthlyFeeCents: 499,
    annualFeeCents: 4790,
    monthlyQuota: 10,
    annualQuota: 120,
    hidden: false,
  },
  {
    slug: 'business',
    imageMaxBytes: DEFAULT_IMAGE_MAX_BYTES,
    mediaMaxBytes: 4 * GB,
    batchMaxFiles: 100,
    batchMaxBytes: 5 * GB,
    name: 'Business',
    monthlyFeeCents: 699,
    annualFeeCents: 6710,
    monthlyQuota: UNLIMITED,
    annualQuota: UNLIMITED,
    hidden: false,
  },
  {
    slug: 'admin',
    imageMaxBytes: DEFAULT_IMAGE_MAX_BYTES,
    mediaMaxBytes: 4 * GB,
    batchMaxFiles: 100,
    batchMaxBytes: 5 * GB,
    name: 'admin',
    monthlyFeeCents: 0,
    annualFeeCents: 0,
    monthlyQuota: UNLIMITED,
    annualQuota: UNLIMITED,
    hidden: true,
  },
];

export const trackBodySchema = z.object({
  // Any text passes the schema so that another name gets its own code, unknown_service.
  service: z.string().meta({ enum: [...SERVICES] }),
  imageCount: z.number().int('must be a whole number').min(1).max(100).default(1),
});

/** A service's standing in the current period; `quota` and `remaining` are -1 when unlimited. */
export const quotaStatusSchema = z.object({
  service: z.enum(SERVICES),
  used: z.number().int(),
  quota: z.number().int(),
  remaining: z.number().int(),
  resetsAt: z.string(),
});
export type QuotaStatus = z.infer<typeof quotaStatusSchema>;

export const userStatsSchema = z.object({
  imagesProcessed: z.number().int(),
  remainingImages: z.number().int(),
  /** The plan the user is on: a subscription, or the free plan (`billingType: free`, no end). */
  subscription: z.object({
    plan: z.object({ name: z.string() }),
    billingType: z.enum(SUBSCRIPTION_BILLING_TYPES),
    endDate: z.string().nullable(),
  }),
  plan: z.object({ _id: z.string(), name: z.string() }),
  usage: z.array(quotaStatusSchema.omit({ resetsAt: true })),
  /** The plan's batch limits: files in one batch, and bytes in all. */
  batch: z.object({ maxFiles: z.number().int(), maxBytes: z.number().int() }),
  /** The largest file this user may send, by kind of tool: the plan's, within the server's ceiling. */
  fileMaxBytes: z.object({ image: z.number().int(), media: z.number().int() }),
  periodStart: z.string(),
  periodEnd: z.string(),
});
export type UserStats = z.infer<typeof userStatsSchema>;

export const adminStatsSchema = z.object({
  userStats: z.object({
    total: z.number().int(),
    developerPlan: z.number().int(),
    businessPlan: z.number().int(),
  }),
  activeSubscriptions: z.number().int(),
  featureUsage: z.record(z.string(), z.number().int()),
  monthlyRevenue: z.number(),
  /** The built-in sandbox takes payments in production: anyone gets paid plans for free. */
  paymentsSandboxInProduction: z.boolean(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

/** Users per page of `GET /api/admin/users` unless `pageSize` says otherwise, and at most. */
export const ADMIN_USERS_PAGE_SIZE = 20;
export const ADMIN_USERS_MAX_PAGE_SIZE = 100;

export const adminUsersQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(ADMIN_USERS_MAX_PAGE_SIZE)
    .default(ADMIN_USERS_PAGE_SIZE),
});

export const adminUserRowSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  /** As the product names a user's fields (the earlier client reads these), beside `role`. */
  isAdmin: z.boolean(),
  /** The plan whose quotas apply now: the subscription's while active, else Basic (admin: admin). */
  currentPlan: z.object({ name: z.string() }),
  role: z.enum(['admin', 'user']),
  suspended: z.boolean(),
  subscription: z
    .object({ plan: z.string(), billingType: z.enum(BILLING_TYPES), endDate: z.string() })
    .nullable(),
  /** As the user gave it at sign-up (a name or an ISO 3166 code); null when not given. */
  country: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

/**
 * `GET /api/admin/users`: a list, since the earlier client filters it; the page
 * is chosen by `?page=&pageSize=`, the total is in `X-Total-Count` and the next page in `Link`.
 */
export const adminUsersResponseSchema = z.array(adminUserRowSchema);

export function isService(value: unknown): value is Service {
  return typeof value === 'string' && (SERVICES as readonly string[]).includes(value);
}

/** GET /api/payments/subscription-status: the user's subscription, lapsed ones included. */
export const subscriptionStatusSchema = z.object({
  subscription: z
    .object({
      planDetails: planSchema,
      /** null for the free plan, which has no end. */
      userDetails: z.object({ subscriptionEndDate: z.string().nullable() }),
      /** `free`: no subscription, the free plan everyone has (as the earlier server said). */
      billingType: z.enum(SUBSCRIPTION_BILLING_TYPES),
      status: z.enum(['active', 'expired']),
      /** Given by an admin (a zero-amount grant): it ends on its date and is not renewed. */
      granted: z.boolean(),
      /** Cancelled: it runs to its end date and is not renewed. */
      cancelAtPeriodEnd: z.boolean(),
      /** A downgrade waiting for the end date: the plan it moves to then (null: none). */
      scheduledChange: z
        .object({
          plan: z.object({ _id: z.string(), name: z.string() }),
          billingType: z.enum(BILLING_TYPES),
        })
        .nullable(),
    })
    .nullable(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** A plan's two fees, in any one unit (dollars in the API, cents in the database). */
export interface PlanFees {
  monthlyFee: number;
  annualFee: number;
}

/**
 * Free only when every fee is 0. One cycle at 0 on a plan with a price for the other is not a
 * free plan: read that way, it handed out the paid plan with no end and no payment.
 */
export const isFreePlan = (fees: PlanFees) => fees.monthlyFee === 0 && fees.annualFee === 0;

/**
 * The billing cycles a plan is sold in. A paid plan offers each cycle that has a price: a fee
 * of 0 beside a non-zero one means that cycle is not offered. A free plan runs monthly (choosing
 * its annual cycle is taken as monthly too).
 */
export function billingCyclesOffered(fees: PlanFees): BillingType[] {
  if (isFreePlan(fees)) return ['monthly'];
  return BILLING_TYPES.filter(
    (cycle) => (cycle === 'annual' ? fees.annualFee : fees.monthlyFee) > 0,
  );
}

/**
 * What a plan costs a month, to compare plans: its monthly fee, or a twelfth of its annual fee
 * when it is sold annually only (its monthly fee of 0 would make it the cheapest of all).
 */
export const monthlyRate = (fees: PlanFees) =>
  fees.monthlyFee > 0 ? fees.monthlyFee : fees.annualFee / 12;

/** A plan and cycle, as the downgrade rule compares them (fees in any one unit). */
export interface PlanChoice {
  planId: string;
  /** The plan's monthlyRate. */
  monthlyFee: number;
  billingType: BillingType;
}

/**
 * A move from a paid subscription that gives the user less than they paid for, so it waits
 * for the paid period to end (docs/decisions/018): a plan with a lower monthly rate, or the same
 * plan from annual to monthly. Anything else (a dearer plan, monthly to annual) starts at once.
 */
export function isDowngrade(current: PlanChoice, target: PlanChoice): boolean {
  if (target.planId === current.planId)
    return current.billingType === 'annual' && target.billingType === 'monthly';
  return target.monthlyFee < current.monthlyFee;
}

/** PATCH /api/admin/users/:id: a role, a suspension, or both. */
export const adminUserChangeSchema = requireFields(
  z.object({ role: z.enum(['admin', 'user']).optional(), suspended: z.boolean().optional() }),
  [{ anyOf: [['role'], ['suspended']], message: 'give a role or suspended', path: [] }],
);
export type AdminUserChange = z.infer<typeof adminUserChangeSchema>;

/** POST /api/admin/users/:id/grant: a plan for some months, at no charge. */
export const adminGrantSchema = z.object({
  planId: z.string().min(1).max(100),
  months: z.number().int().min(1).max(36),
});
export type AdminGrant = z.infer<typeof adminGrantSchema>;
