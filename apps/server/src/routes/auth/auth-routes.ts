import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authResponseSchema,
  loginBodySchema,
  registerBodySchema,
  userSchema,
} from '@refract/contracts';
import { normalizeEmail } from '../../services/account-service.js';
import { clientKey } from '../../services/attempt-limiter.js';
import type { Services } from '../../services/services.js';

export const authRoutes =
  (services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/auth/register',
      {
        config: {
          access: 'public',
          errors: ['invalid_email', 'weak_password', 'email_taken', 'too_many_requests'],
        },
        schema: {
          summary: 'Create an account',
          tags: ['Account'],
          body: registerBodySchema,
          response: { 201: authResponseSchema },
        },
      },
      async (request, reply) => {
        // Counted before the work: each account comes with free uses of every tool.
        await services.signUpAttempts.hit([`register:ip:${clientKey(request.ip)}`]);
        return reply.status(201).send(await services.accounts.register(request.body));
      },
    );

    app.post(
      '/api/auth/login',
      {
        config: { access: 'public', errors: ['invalid_credentials', 'too_many_requests'] },
        schema: {
          summary: 'Log in: a session token',
          tags: ['Account'],
          body: loginBodySchema,
          response: { 200: authResponseSchema },
        },
      },
      async (request) =>
        services.loginAttempts.attempt(normalizeEmail(request.body.email), request.ip, () =>
          services.accounts.login(request.body),
        ),
    );

    app.get(
      '/api/auth/me',
      {
        config: { access: 'user' },
        schema: { summary: 'The signed-in user', tags: ['Account'], response: { 200: userSchema } },
      },
      async (request) => services.accounts.publicUser(request.user!),
    );
  };
