import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { planBodySchema, planSchema } from '@refract/contracts';
import type { AuthGuards } from '../../plugins/auth.js';
import type { Services } from '../../services/services.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

export const planRoutes =
  (services: Services, guards: AuthGuards): FastifyPluginAsyncZod =>
  async (app) => {
    const prefix = '/api/subscriptions/plans';
    const tags = ['Plans'];
    // Public; an admin's token also shows the hidden admin plan.
    const includeHidden = (request: { user: { is_admin: number } | null }) =>
      request.user?.is_admin === 1;

    app.get(
      prefix,
      {
        preHandler: guards.optionalUser,
        schema: { summary: 'The plans', tags, response: { 200: z.array(planSchema) } },
      },
      async (request) => services.plans.list({ includeHidden: includeHidden(request) }),
    );

    app.get(
      `${prefix}/:id`,
      {
        preHandler: guards.optionalUser,
        config: { errors: ['not_found'] },
        schema: { summary: 'One plan', tags, params: idParams, response: { 200: planSchema } },
      },
      async (request) =>
        services.plans.get(request.params.id, { includeHidden: includeHidden(request) }),
    );

    app.post(
      prefix,
      {
        preHandler: guards.requireAdmin,
        config: { errors: ['plan_name_taken'] },
        schema: {
          summary: 'Create a plan',
          tags,
          body: planBodySchema,
          response: { 201: planSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await services.plans.create(request.body)),
    );

    app.put(
      `${prefix}/:id`,
      {
        preHandler: guards.requireAdmin,
        config: { errors: ['not_found', 'plan_name_taken'] },
        schema: {
          summary: 'Change a plan',
          tags,
          params: idParams,
          body: planBodySchema,
          response: { 200: planSchema },
        },
      },
      async (request) => services.plans.update(request.params.id, request.body),
    );

    app.delete(
      `${prefix}/:id`,
      {
        preHandler: guards.requireAdmin,
        config: { errors: ['not_found', 'plan_in_use', 'plan_protected'] },
        schema: {
          summary: 'Delete a plan',
          tags,
          params: idParams,
          response: { 204: z.undefined().describe('Deleted') },
        },
      },
      async (request, reply) => {
        await services.plans.remove(request.params.id);
        return reply.status(204).send();
      },
    );
  };
