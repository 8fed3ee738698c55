import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/repositories/users-repository.js';
import { forbidden, unauthorized } from '../lib/app-error.js';
import type { Services } from '../services/services.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireUser / requireAdmin. */
    user: UserRow | null;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/**
 * Authentication and roles, checked on the server for every protected route. Every
 * `/api/admin/*` request needs an admin, whether or not the route exists yet.
 */
export function registerAuth(app: FastifyInstance, services: Services) {
  app.decorateRequest('user', null);

  async function requireUser(request: FastifyRequest) {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    request.user = await services.accounts.authenticate(token);
  }

  async function requireAdmin(request: FastifyRequest) {
    await requireUser(request);
    if (request.user?.is_admin !== 1) throw forbidden('This needs an administrator account');
  }

  /** Sets request.user when a valid token is sent; anonymous otherwise, never an error. */
  async function optionalUser(request: FastifyRequest) {
    const token = bearerToken(request);
    if (token) request.user = await services.accounts.authenticate(token).catch(() => null);
  }

  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/admin/') || request.url === '/api/admin')
      await requireAdmin(request);
  });

  return { requireUser, requireAdmin, optionalUser };
}

export type AuthGuards = ReturnType<typeof registerAuth>;
