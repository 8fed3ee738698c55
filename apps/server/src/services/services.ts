import type { AppContext } from '../app-context.js';
import { passwordResetsRepository } from '../db/repositories/password-resets-repository.js';
import { usersRepository } from '../db/repositories/users-repository.js';
import { plansRepository } from '../db/repositories/plans-repository.js';
import { cachedPlansRepository } from '../db/repositories/plans-cache.js';
import { settingsRepository } from '../db/repositories/settings-repository.js';
import { subscriptionsRepository } from '../db/repositories/subscriptions-repository.js';
import { usageRepository } from '../db/repositories/usage-repository.js';
import { apiKeysRepository } from '../db/repositories/api-keys-repository.js';
import { adminService } from './admin-service.js';
import { apiKeyService } from './api-key-service.js';
import { fileCeilings } from './file-limits.js';
import { countedQuotas } from './counted-quotas.js';
import { planService } from './plan-service.js';
import { quotaService } from './quota-service.js';
import { owedWrites } from '../lib/owed-writes.js';
import { accountService } from './account-service.js';
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import { attemptLimiter, redisAttemptLimiter } from './attempt-limiter.js';
import { loadOrCreateJwtSecret } from './jwt-secret.js';
import { loginAttempts } from './login-attempts.js';
import { passwordRecoveryService } from './password-recovery-service.js';
import { timeoutBackoff } from './timeout-backoff.js';
import { tokenService } from './token-service.js';
import { paymentsRepository } from '../db/repositories/payments-repository.js';
import { sandboxProvider } from '../payments/sandbox-provider.js';
import { stripeClient, stripeProvider } from '../payments/stripe-provider.js';
import { paymentService } from './payments/payment-service.js';
import { stripeEvents } from './payments/stripe-events.js';

// Security answers and resets: 10 attempts per 15 minutes, per email and per IP. Logins: 15-minute
// windows of failures, with the limits of login-attempts.ts.
const CREDENTIAL_ATTEMPTS = { max: 10, windowMs: 15 * 60 * 1000 };
// Sign-ups: SIGN_UP_LIMIT (10) an hour per client (IPv4 address or IPv6 /64).
const signUpAttempts = (config: AppContext['config']) => ({
  max: config.signUpsPerHour,
  windowMs: 60 * 60 * 1000,
});

/** In Redis when there is one, so that every web process counts together. */
function attemptLimiters(config: AppContext['config'], log: FastifyBaseLogger) {
  if (!config.redisUrl) {
    return {
      credentials: attemptLimiter(CREDENTIAL_ATTEMPTS),
      signUps: attemptLimiter(signUpAttempts(config)),
      close() {},
    };
  }
  // Loaded only with REDIS_URL (its client is memory a one-machine server never uses). Lazy:
  // a worker process builds these services too but never counts logins.
  const { Redis } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => {}); // each failed command is logged where it falls back
  const prefix = `${config.jobs.queueName}:attempts:`;
  return {
    credentials: redisAttemptLimiter(CREDENTIAL_ATTEMPTS, redis, prefix, log),
    signUps: redisAttemptLimiter(signUpAttempts(config), redis, prefix, log),
    close: () => redis.disconnect(),
  };
}

/** Wires repositories into services once per app; routes receive the result. */
export function createServices({ config, database, metrics }: AppContext, log: FastifyBaseLogger) {
  const users = usersRepository(database.db, database.committedUser);
  const plans = cachedPlansRepository(database, plansRepository(database.db));
  const subscriptions = subscriptionsRepository(database.db);
  const usage = usageRepository(database.db);
  const tokens = tokenService(loadOrCreateJwtSecret(config.dataDir, config.jwtSecret));
  const payments = paymentsRepository(database.db);
  const { provider: providerName, stripeSecretKey, stripeApiUrl } = config.payments;
  // config.ts guarantees the Stripe key and webhook secret when Stripe is the provider.
  const stripe =
    providerName === 'stripe'
      ? stripeClient({ secretKey: stripeSecretKey!, apiUrl: stripeApiUrl })
      : undefined;
  const provider = stripe ? stripeProvider(stripe) : sandboxProvider();
  const limiters = attemptLimiters(config, log);
  const owed = owedWrites(log);
  const ceilings = fileCeilings(config);
  const quotas = countedQuotas(
    quotaService(plans, subscriptions, usage, undefined, owed, ceilings),
    metrics,
  );
  return {
    users,
    accounts: accountService(
      users,
      tokens,
      async (row) => (await quotas.entitlement(row)).plan.name,
    ),
    apiKeys: apiKeyService(apiKeysRepository(database.db)),
    recovery: passwordRecoveryService(users, passwordResetsRepository(database.db)),
    plans: planService(plans, subscriptions, settingsRepository(database.db), payments, ceilings),
    quotas,
    admin: adminService(
      users,
      plans,
      subscriptions,
      usage,
      payments,
      config.payments.sandboxInProduction,
      database.db,
    ),
    payments: paymentService({
      db: database.db,
      plans,
      subscriptions,
      payments,
      users,
      provider,
      quotas,
      publicUrl: config.publicUrl,
      corsOrigins: config.corsOrigins,
      onFulfilled: (provider) => metrics.paymentFulfilled(provider),
    }),
    stripe: stripe && {
      client: stripe,
      events: stripeEvents({
        db: database.db,
        stripe,
        payments,
        plans,
        subscriptions,
        onFulfilled: (provider) => metrics.paymentFulfilled(provider),
      }),
    },
    credentialAttempts: limiters.credentials,
    loginAttempts: loginAttempts(limiters.credentials),
    signUpAttempts: limiters.signUps,
    timeouts: timeoutBackoff(),
    async close() {
      await owed.flush();
      limiters.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
