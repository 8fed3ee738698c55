import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginCallback,
  FastifyRequest,
  RouteOptions,
} from 'fastify';
import type { UserRow } from '../db/repositories/users-repository.js';
import { AppError, forbidden, unauthorized } from '../lib/app-error.js';
import { looksLikeApiKey } from '../services/api-key-service.js';
import { accountSuspended } from '../lib/account-suspended.js';
import { CHECKOUT_KEY_HEADER } from '@refract/contracts';
import type { Services } from '../services/services.js';
import { sameSecret } from '../lib/hashing.js';

/**
 * Who may call a route, declared on the route itself as `config: { access }`:
 * - `public`: anyone; no credential is read.
 * - `optionalUser`: anyone; a valid session token sets request.user (an admin sees more).
 * - `user`: a signed-in session; API keys refused.
 * - `userOrKey`: a session or an API key (tools, jobs, usage).
 * - `admin`: an administrator's session.
 * - `checkoutLink`: a sandbox checkout's routes, `/…/:id`: the key of that checkout's link
 *   (`X-Checkout-Key`), which stands for its owner's sign-in there alone, or a session.
 * - `metrics`: `GET /metrics`, for Prometheus: the bearer METRICS_TOKEN, and nothing else.
 * A route that declares nothing refuses everyone (default deny).
 */
export type Access =
  'public' | 'optionalUser' | 'user' | 'userOrKey' | 'admin' | 'checkoutLink' | 'metrics';
export const ACCESS_LEVELS = [
  'public',
  'optionalUser',
  'user',
  'userOrKey',
  'admin',
  'checkoutLink',
  'metrics',
] as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the route's guard. */
    user: UserRow | null;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

type Credential = { kind: 'session'; token: string } | { kind: 'apiKey'; key: string };

/** What the request signs in with: `X-API-Key`, or a bearer that is a key or a session token. */
function credentialOf(request: FastifyRequest): Credential | undefined {
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.trim()) return { kind: 'apiKey', key: apiKey.trim() };
  const bearer = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!bearer) return undefined;
  return looksLikeApiKey(bearer)
    ? { kind: 'apiKey', key: bearer }
    : { kind: 'session', token: bearer };
}

const keyNotAllowed = () =>
  new AppError(
    403,
    'api_key_not_allowed',
    'API keys work on the tools, jobs and usage endpoints only. Sign in to use this one.',
  );

/**
 * Authentication and roles, enforced on every route where it is declared. Each route that is
 * not public gets one guard as its first `onRequest` hook, so it runs before the body is read or validated (an
 * anonymous caller learns nothing from a schema). The guard reads the access level the matched
 * route declares, never the URL: `/api/%61dmin/users` matches the admin route and meets the
 * admin guard. Must be registered before any route.
 *
 * API keys are refused unless the route declares `userOrKey`, so a route added later is never
 * opened to keys by accident.
 */
export function registerAuth(
  app: FastifyInstance,
  services: Services,
  metricsToken: string | undefined,
) {
  app.decorateRequest('user', null);

  async function signIn(request: FastifyRequest, keys: 'accept' | 'refuse') {
    const credential = credentialOf(request);
    if (!credential) throw unauthorized();
    if (credential.kind === 'session') {
      request.user = await services.accounts.authenticate(credential.token);
    } else if (keys === 'accept') {
      request.user = await services.apiKeys.authenticate(credential.key);
    } else throw keyNotAllowed();
    // On every authenticated request, sessions and keys alike: a suspension holds at once.
    if (request.user.suspended_at) throw accountSuspended();
  }

  const GUARDS: Record<Access, (request: FastifyRequest) => Promise<void>> = {
    public: async () => {},
    async optionalUser(request) {
      const credential = credentialOf(request);
      if (credential?.kind === 'session')
        request.user = await services.accounts.authenticate(credential.token).catch(() => null);
      if (request.user?.suspended_at) request.user = null;
    },
    user: (request) => signIn(request, 'refuse'),
    userOrKey: (request) => signIn(request, 'accept'),
    async admin(request) {
      await signIn(request, 'refuse');
      if (request.user?.is_admin !== 1) throw forbidden('This needs an administrator account');
    },
    async checkoutLink(request) {
      const key = request.headers[CHECKOUT_KEY_HEADER];
      if (typeof key !== 'string') return signIn(request, 'refuse');
      const { id } = request.params as { id?: unknown };
      request.user = await services.payments.checkoutLinkOwner(String(id ?? ''), key);
      if (request.user.suspended_at) throw accountSuspended();
    },
    async metrics(request) {
      const bearer = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
      if (!metricsToken || !bearer || !sameSecret(bearer, metricsToken))
        throw unauthorized('Send the metrics token (METRICS_TOKEN) as a bearer token');
    },
  };

  async function guardRoute(request: FastifyRequest) {
    const access = request.routeOptions.config.access;
    const guard = access && Object.hasOwn(GUARDS, access) ? GUARDS[access] : undefined;
    if (!guard) {
      request.log.error({ route: request.routeOptions.url }, 'route declares no access: refused');
      throw forbidden('This route is closed');
    }
    await guard(request);
  }

  /**
   * `optionalUser` for a visitor without a session (the health check, the plans page) answers
   * at once, as a callback hook: no promise and no extra turn of the event loop on the
   * requests that need nothing checked.
   */
  function optionalUserHook(request: FastifyRequest, _reply: unknown, done: () => void) {
    if (credentialOf(request)?.kind !== 'session') return done();
    GUARDS.optionalUser(request).then(() => done(), done);
  }

  const guards = new Set<unknown>([guardRoute, optionalUserHook, ...Object.values(GUARDS)]);
  app.addHook('onRoute', (route: RouteOptions) => {
    const hooks = [route.onRequest ?? []].flat();
    // Fastify derives a HEAD route from each GET with the GET's hooks: add the guard once.
    if (hooks.some((hook) => guards.has(hook))) return;
    const access = route.config?.access;
    // A public route has nothing to check: no hook, and no cost on every request.
    if (access === 'public') return;
    // The level's own guard when declared; otherwise one that reads the level at request time
    // (a plugin's scope may declare it after this hook) and refuses when there is none.
    const guard =
      access === 'optionalUser'
        ? optionalUserHook
        : access && Object.hasOwn(GUARDS, access)
          ? GUARDS[access]
          : guardRoute;
    route.onRequest = [guard, ...hooks];
  });
}

/**
 * Registers a third-party plugin (static files, the API reference page) whose routes are all
 * public: they carry no access of their own, so this scope declares it for them.
 */
export async function registerPublicPlugin<Options extends Record<string, unknown>>(
  app: FastifyInstance,
  plugin: FastifyPluginAsync<Options> | FastifyPluginCallback<Options>,
  options: NoInfer<Options>,
) {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    await scope.register(plugin as FastifyPluginAsync<Options>, options);
  });
}
