import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
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
          summary: 'A page of users',
          tags: ['Admin'],
          querystring: adminUsersQuerySchema,
          response: { 200: adminUsersResponseSchema },
        },
      },
      async (request) =>
        services.admin.listUsers(request.query.search || undefined, request.query.page),
    );
  };
