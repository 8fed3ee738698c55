import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/repositories/users-repository.js';
import { AppError, forbidden, unauthorized } from '../lib/app-error.js';
import { looksLikeApiKey } from '../services/api-key-service.js';
import type { Services } from '../services/services.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guards below. */
    user: UserRow | null;
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
 * Authentication and roles, checked on the server for every protected route. Every
 * `/api/admin/*` request needs an admin, whether or not the route exists yet.
 *
 * API keys are refused by default: requireUser and requireAdmin answer a key with 403
 * api_key_not_allowed, so a route added later is never opened to keys by accident. Only
 * routes that ask for requireUserOrKey (tools, jobs, usage) take them.
 */
export function registerAuth(app: FastifyInstance, services: Services) {
  app.decorateRequest('user', null);

  async function requireUser(request: FastifyRequest) {
    const credential = credentialOf(request);
    if (!credential) throw unauthorized();
    if (credential.kind === 'apiKey') throw keyNotAllowed();
    request.user = await services.accounts.authenticate(credential.token);
  }

  async function requireUserOrKey(request: FastifyRequest) {
    const credential = credentialOf(request);
    if (!credential) throw unauthorized();
    request.user =
      credential.kind === 'apiKey'
        ? await services.apiKeys.authenticate(credential.key)
        : await services.accounts.authenticate(credential.token);
  }

  async function requireAdmin(request: FastifyRequest) {
    await requireUser(request);
    if (request.user?.is_admin !== 1) throw forbidden('This needs an administrator account');
  }

  /** Sets request.user when a valid session token is sent; anonymous otherwise, never an error. */
  async function optionalUser(request: FastifyRequest) {
    const credential = credentialOf(request);
    if (credential?.kind === 'session')
      request.user = await services.accounts.authenticate(credential.token).catch(() => null);
  }

  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/admin/') || request.url === '/api/admin')
      await requireAdmin(request);
  });

  return { requireUser, requireUserOrKey, requireAdmin, optionalUser };
}

export type AuthGuards = ReturnType<typeof registerAuth>;
