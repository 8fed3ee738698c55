import { randomUUID } from 'node:crypto';
import Fastify, { type RouteOptions } from 'fastify';
import { pino } from 'pino';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './app-context.js';
import {
  clientErrorHandler,
  frameworkErrors,
  registerErrorHandler,
} from './plugins/error-handler.js';
import { registerWebApp } from './plugins/web-app.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { responseSerializerCompiler } from './plugins/response-serializer.js';
import { registerAuth } from './plugins/auth.js';
import { registerOpenApi } from './plugins/openapi.js';
import { apiKeyRoutes } from './routes/keys/api-key-routes.js';
import { authRoutes } from './routes/auth/auth-routes.js';
import { passwordRecoveryRoutes } from './routes/auth/password-recovery-routes.js';
import { healthRoutes } from './routes/health/health-routes.js';
import { siteRoutes } from './routes/site/site-routes.js';
import { userRoutes } from './routes/user/user-routes.js';
import { planRoutes } from './routes/plans/plan-routes.js';
import { adminRoutes } from './routes/admin/admin-routes.js';
import { toolRoutes } from './routes/tools/tool-routes.js';
import { htmlToImageRoutes } from './routes/tools/html-to-image-routes.js';
import { detectFacesRoutes } from './routes/tools/detect-faces-routes.js';
import { registerUploads } from './plugins/uploads.js';
import { uploadRoutes } from './routes/uploads/upload-routes.js';
import { closeStalledRequests } from './plugins/stalled-requests.js';
import { registerLingeringClose } from './plugins/lingering-close.js';
import { endEventStreamsOnClose } from './lib/server-sent-events.js';
import { registerCors } from './plugins/cors.js';
import { OneLinePerRequest } from './plugins/request-log.js';
import { jobRoutes } from './routes/jobs/job-routes.js';
import { batchRoutes } from './routes/batches/batch-routes.js';
import { paymentRoutes } from './routes/payments/payment-routes.js';
import { sandboxRoutes } from './routes/payments/sandbox-routes.js';
import { stripeWebhookRoutes } from './routes/payments/stripe-webhook-routes.js';
import { startJobSystem } from './services/jobs/job-system.js';
import { createServices } from './services/services.js';
import { ensureAdmin } from './services/admin-bootstrap.js';
import { refuseUnknownRequestFields } from './lib/unknown-fields.js';
import { withStartupLock } from './db/startup-lock.js';
import { configureImageWork } from './media/image/image-work.js';
import { registerMetricsRoute } from './metrics/metrics-routes.js';
import { metricsServed } from './metrics/metrics.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Headers whose values are credentials: never written to the log. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  // @fastify/multipart logs the request's headers at trace level when it parses an upload.
  'busboyOptions.headers.authorization',
  'busboyOptions.headers.cookie',
  'busboyOptions.headers["x-api-key"]',
];

export interface BuildOptions {
  /** Where the log goes (stdout when unset); tests read it to check what it holds. */
  logStream?: { write(line: string): void };
  /** Told of every route as it is added (tests compare them with the OpenAPI document). */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildApp(context: AppContext, options: BuildOptions = {}) {
  const { config } = context;
  configureImageWork(config.jobs);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED, censor: '[redacted]' },
      // Written behind the answer, not during it: no synchronous write to stdout inside each
      // request. At rest each line still goes out at once; under load the lines waiting are
      // written together; what is pending is written when the process exits (pino flushes
      // it). The line as a whole still costs stats about an eighth and plans a fifth (info ÷
      // silent 0.87× and 0.78×, bench/results/api-overhead.md).
      stream: options.logStream ?? pino.destination({ dest: 1, sync: false }),
    },
    logController: new OneLinePerRequest(),
    bodyLimit: 1024 * 1024,
    // Keep a caller's request id when it is well formed, so logs can be joined across services.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: config.trustProxy,
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  refuseUnknownRequestFields(app);
  app.setSerializerCompiler(responseSerializerCompiler);
  registerSecurityHeaders(app, config.publicUrl.startsWith('https://'));

  if (config.payments.sandboxInProduction) {
    app.log.warn(
      'PAYMENTS ARE IN TEST MODE IN PRODUCTION: PAYMENT_PROVIDER is sandbox (the default), so anyone ' +
        'gets a paid plan with the test card 4242 4242 4242 4242. Set PAYMENT_PROVIDER=stripe ' +
        'with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take real payments.',
    );
  }
  registerErrorHandler(app, context.metrics);
  // Every answer's route pattern (never its URL), method, status and time, for Prometheus: only
  // when something serves the metrics (METRICS_TOKEN or METRICS_PORT), so it costs nothing else.
  if (metricsServed(config))
    app.addHook('onResponse', (request, reply, done) => {
      context.metrics.request(
        {
          method: request.method,
          route: request.routeOptions.url ?? '(no route)',
          status: reply.statusCode,
        },
        reply.elapsedTime / 1000,
      );
      done();
    });
  closeStalledRequests(app, config.uploadTimeouts);
  registerLingeringClose(app);
  await registerCors(app, config.corsOrigins);
  const services = createServices(context, app.log);
  // Before any route: every route gets its guard as it is declared.
  registerAuth(app, services, config.metrics.token);
  app.addHook('onClose', async () => services.close());
  // Replicas starting together on one database take turns (withStartupLock).
  await withStartupLock(context.database, async () => {
    await services.plans.seedDefaults();
    if (config.admin) {
      const result = await ensureAdmin(services.users, config.admin);
      app.log.info(
        `admin ${result.email} ${result.created ? 'created' : 'ensured'} from ADMIN_EMAIL`,
      );
    }
  });
  await registerOpenApi(app, context.version);
  await app.register(authRoutes(services));
  await app.register(passwordRecoveryRoutes(services));
  await app.register(userRoutes(services));
  await app.register(apiKeyRoutes(services));
  await app.register(planRoutes(services));
  await app.register(adminRoutes(services));
  await app.register(paymentRoutes(config, services));
  if (services.stripe)
    await app.register(stripeWebhookRoutes(services.stripe, config.payments.stripeWebhookSecret!));
  else await app.register(sandboxRoutes(services));
  const jobs = await startJobSystem(context, services.quotas, app.log);
  endEventStreamsOnClose(app);
  // Running jobs get what is left of SHUTDOWN_TIMEOUT, counted from when closing began.
  let closingAt = 0;
  app.addHook('preClose', async () => {
    closingAt = Date.now();
    jobs.service.beginShutdown();
  });
  app.addHook('onClose', () =>
    jobs.close(Math.max(0, closingAt + config.shutdownTimeoutMs - Date.now())),
  );
  await app.register(healthRoutes(context, jobs));
  await app.register(siteRoutes(config));
  registerMetricsRoute(app, config, context.metrics);
  await registerUploads(app);
  await app.register(uploadRoutes(context, services, jobs.uploads));
  await app.register(toolRoutes(context, services, jobs.service, jobs.uploads));
  await app.register(jobRoutes(jobs.service));
  await app.register(batchRoutes(context, services, jobs.batches));
  await app.register(htmlToImageRoutes(context, services));
  await app.register(detectFacesRoutes(context, services));
  await registerWebApp(app, config.webDistDir, (name) => context.database.cacheVersion(name));
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
