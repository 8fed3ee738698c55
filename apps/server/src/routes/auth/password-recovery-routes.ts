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
import type { Services } from '../../services/services.js';

export const passwordRecoveryRoutes =
  (services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const prefix = '/api/auth/forgot-password';
    const countAttempt = (step: string, email: string, ip: string) =>
      services.credentialAttempts.hit([
        `${step}:email:${normalizeEmail(email)}`,
        `${step}:ip:${ip}`,
      ]);

    app.post(
      `${prefix}/verify-email`,
      { schema: { body: verifyEmailBodySchema, response: { 200: verifyEmailResponseSchema } } },
      async (request) => {
        countAttempt('recover-email', request.body.email, request.ip);
        return services.recovery.questions(request.body.email);
      },
    );

    app.post(
      `${prefix}/verify-answers`,
      { schema: { body: verifyAnswersBodySchema, response: { 200: verifyAnswersResponseSchema } } },
      async (request) => {
        countAttempt('recover-answers', request.body.email, request.ip);
        return services.recovery.verifyAnswers(request.body.email, request.body.answers);
      },
    );

    app.post(
      `${prefix}/reset`,
      { schema: { body: resetPasswordBodySchema, response: { 200: messageResponseSchema } } },
      async (request) => {
        const { email, newPassword, resetToken } = request.body;
        countAttempt('recover-reset', email, request.ip);
        return services.recovery.reset(email, newPassword, resetToken ?? '');
      },
    );
  };
