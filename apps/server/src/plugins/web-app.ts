import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerPublicPlugin } from './auth.js';
import { sendNotFound } from './error-handler.js';

/** apps/web/dist, from either apps/server/src/plugins or apps/server/dist/plugins. */
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** A client-side route: a GET for a page (no file extension) outside the API. */
function isClientRoute(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '/';
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (path === '/api' || path.startsWith('/api/')) return false;
  return !/\.[a-z0-9]+$/i.test(path);
}

/**
 * Serves the built web app from the API's port; client-side routes fall back to index.html.
 * Without a build (tests, `npm run dev`) only the API answers.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir = DEFAULT_WEB_DIST) {
  const indexPath = join(webDistDir, 'index.html');
  const hasBuild = existsSync(indexPath);
  // Every client-side route answers this same small page; read once.
  const indexHtml = hasBuild ? readFileSync(indexPath) : undefined;
  if (hasBuild) {
    await registerPublicPlugin(app, fastifyStatic, {
      root: webDistDir,
      index: false,
      wildcard: false, // routes for the files present at start-up; the rest falls through to the handler below
      setHeaders(res: { header(name: string, value: string): void }, path: string) {
        // Hashed assets never change; index.html must always be revalidated.
        const immutable = path.includes(`${join(webDistDir, 'assets')}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (indexHtml && isClientRoute(request)) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(indexHtml);
    }
    return sendNotFound(request, reply);
  });
  return { hasBuild };
}
