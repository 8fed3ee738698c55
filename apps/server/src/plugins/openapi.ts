import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { describeRoute } from '../openapi/describe-route.js';
import { registerPublicPlugin } from './auth.js';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

/**
 * The OpenAPI 3.1 document, generated from the routes' zod schemas as they are registered
 * (so it must be registered before them), and the reference page that reads it. The page's
 * scripts and styles are files in @fastify/swagger-ui, served from here: no CDN.
 */
export async function registerOpenApi(app: FastifyInstance, version: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Refract API',
        version,
        description:
          'Image, audio and video tools. Sign in with a session token, or call the tools with an API key ' +
          '(create one on the dashboard). Guide: docs/api.md.',
      },
      components: {
        securitySchemes: {
          session: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The token from POST /api/auth/login; works everywhere it is allowed',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (rf_live_…) as a bearer token: tools, jobs and usage only',
          },
          apiKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'The same API key in its own header',
          },
          checkoutKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Checkout-Key',
            description:
              "A sandbox checkout link's key (after #key= in the link): that checkout's page only",
          },
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'METRICS_TOKEN, for Prometheus: GET /metrics only',
          },
        },
      },
    },
    transform: describeRoute,
  });
  await registerPublicPlugin(app, swaggerUi, {
    routePrefix: DOCS_PREFIX,
    // No calls to validator.swagger.io: the page talks to this server only.
    uiConfig: { validatorUrl: null, deepLinking: true },
  });
  app.get(
    OPENAPI_PATH,
    { config: { access: 'public' }, schema: { summary: 'This document', tags: ['Reference'] } },
    async () => app.swagger(),
  );
}
