import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  messageResponseSchema,
  resetPasswordBodySchema,
  verifyAnswersBodySchema,
  verifyAnswersResponseSchema,
  verifyEmailBodySchema,
  verifyEmailResponseSchema,
} from '@refract/contracts';
import { normalizeEmail } from '../../services/account-service.js';
import { clientKey } from '../../services/attempt-limiter.js';
import type { Services } from '../../services/services.js';

export const passwordRecoveryRoutes =
  (services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const prefix = '/api/auth/forgot-password';
    const countAttempt = (step: string, email: string, ip: string) =>
      services.credentialAttempts.hit([
        `${step}:email:${normalizeEmail(email)}`,
        `${step}:ip:${clientKey(ip)}`,
      ]);

    app.post(
      `${prefix}/verify-email`,
      {
        config: { access: 'public', errors: ['too_many_requests'] },
        schema: {
          summary: 'Password recovery, step 1: the security questions',
          tags: ['Account'],
          body: verifyEmailBodySchema,
          response: { 200: verifyEmailResponseSchema },
        },
      },
      async (request) => {
        await countAttempt('recover-email', request.body.email, request.ip);
        return services.recovery.questions();
      },
    );

    app.post(
      `${prefix}/verify-answers`,
      {
        config: { access: 'public', errors: ['incorrect_answers', 'too_many_requests'] },
        schema: {
          summary: 'Password recovery, step 2: answers for a reset token',
          tags: ['Account'],
          body: verifyAnswersBodySchema,
          response: { 200: verifyAnswersResponseSchema },
        },
      },
      async (request) => {
        await countAttempt('recover-answers', request.body.email, request.ip);
        return services.recovery.verifyAnswers(request.body.email, request.body.answers);
      },
    );

    app.post(
      `${prefix}/reset`,
      {
        config: {
          access: 'public',
          errors: ['invalid_reset_token', 'weak_password', 'too_many_requests'],
        },
        schema: {
          summary: 'Password recovery, step 3: a new password',
          tags: ['Account'],
          body: resetPasswordBodySchema,
          response: { 200: messageResponseSchema },
        },
      },
      async (request) => {
        const { email, newPassword, resetToken } = request.body;
        await countAttempt('recover-reset', email, request.ip);
        return services.recovery.reset(email, newPassword, resetToken ?? '');
      },
    );
  };
