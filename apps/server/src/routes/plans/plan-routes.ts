import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { planBodySchema, planSchema } from '@refract/contracts';
import type { Services } from '../../services/services.js';
import { sendCached } from '../../lib/http-cache.js';

const idParams = z.object({ id: z.string().min(1).max(100) });

export const planRoutes =
  (services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const prefix = '/api/subscriptions/plans';
    const tags = ['Plans'];
    // Public; an admin's token also shows the hidden admin plan.
    const includeHidden = (request: { user: { is_admin: number } | null }) =>
      request.user?.is_admin === 1;

    app.get(
      prefix,
      {
        config: { access: 'optionalUser' },
        schema: { summary: 'The plans', tags, response: { 200: z.array(planSchema) } },
      },
      async (request, reply) => {
        const hidden = includeHidden(request);
        const cached = await services.plans.listBody({ includeHidden: hidden });
        return sendCached(request, reply, cached, hidden ? 'private' : 'public');
      },
    );

    app.get(
      `${prefix}/:id`,
      {
        config: { access: 'optionalUser', errors: ['not_found'] },
        schema: { summary: 'One plan', tags, params: idParams, response: { 200: planSchema } },
      },
      async (request) =>
        services.plans.get(request.params.id, { includeHidden: includeHidden(request) }),
    );

    app.post(
      prefix,
      {
        config: { access: 'admin', errors: ['plan_name_taken'] },
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
        config: { access: 'admin', errors: ['not_found', 'plan_name_taken'] },
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
        config: { access: 'admin', errors: ['not_found', 'plan_protected'] },
        schema: {
          summary: 'Delete a plan, or archive it when it has payments or subscribers',
          tags,
          params: idParams,
          response: {
            200: planSchema.describe('Archived: hidden from the plans, kept for history'),
            204: z.undefined().describe('Deleted'),
          },
        },
      },
      async (request, reply) => {
        const { archived } = await services.plans.remove(request.params.id);
        return archived ? reply.status(200).send(archived) : reply.status(204).send();
      },
    );
  };
