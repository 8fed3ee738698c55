import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminGrantSchema,
  adminUserChangeSchema,
  adminStatsSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
} from '@refract/contracts';
import type { Services } from '../../services/services.js';

export const adminRoutes =
  (services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/dashboard/stats',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Users and feature usage',
          tags: ['Admin'],
          response: { 200: adminStatsSchema },
        },
      },
      async () => services.admin.dashboardStats(),
    );

    app.get(
      '/api/admin/users',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'A page of users; the total in X-Total-Count, the next page in Link',
          tags: ['Admin'],
          querystring: adminUsersQuerySchema,
          response: { 200: adminUsersResponseSchema },
        },
      },
      async (request, reply) => {
        const { search, page, pageSize } = request.query;
        const { users, total } = await services.admin.listUsers(
          search || undefined,
          page,
          pageSize,
        );
        reply.header('x-total-count', String(total));
        if (page * pageSize < total) {
          const next = new URLSearchParams({ page: String(page + 1), pageSize: String(pageSize) });
          if (search) next.set('search', search);
          reply.header('link', `</api/admin/users?${next}>; rel="next"`);
        }
        return users;
      },
    );

    const userParams = z.object({ id: z.string().min(1).max(100) });

    app.patch(
      '/api/admin/users/:id',
      {
        config: { access: 'admin', errors: ['not_found', 'last_admin'] },
        schema: {
          summary: "Change a user's role, or suspend or reactivate the account",
          tags: ['Admin'],
          params: userParams,
          body: adminUserChangeSchema,
          response: { 204: z.undefined().describe('Changed') },
        },
      },
      async (request, reply) => {
        await services.admin.changeUser(request.user!, request.params.id, request.body);
        // Who did what to whom; ids only, never a credential.
        request.log.info(
          { adminId: request.user!.id, userId: request.params.id, change: request.body },
          'admin changed a user',
        );
        return reply.status(204).send();
      },
    );

    app.post(
      '/api/admin/users/:id/grant',
      {
        config: { access: 'admin', errors: ['not_found'] },
        schema: {
          summary: 'Give a user a plan for some months, recorded as a zero-amount payment',
          tags: ['Admin'],
          params: userParams,
          body: adminGrantSchema,
          response: { 200: z.object({ plan: z.string() }) },
        },
      },
      async (request) => {
        const granted = await services.admin.grantPlan(
          request.user!,
          request.params.id,
          request.body,
        );
        request.log.info(
          { adminId: request.user!.id, userId: request.params.id, grant: request.body },
          'admin granted a plan',
        );
        return granted;
      },
    );
  };
