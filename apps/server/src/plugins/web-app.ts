import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerPublicPlugin } from './auth.js';
import { livePages } from './live-pages.js';
import { sendNotFound } from './error-handler.js';
import {
  readerLanguage,
  readHtmlPage,
  readPrerenderedPages,
  type HtmlPage,
} from './prerendered-pages.js';

/** apps/web/dist, from either apps/server/src/plugins or apps/server/dist/plugins. */
const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** A client-side route: a GET for a page (no file extension) outside the API. */
function isClientRoute(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '/';
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (path === '/api' || path.startsWith('/api/')) return false;
  return !/\.[a-z0-9]+$/i.test(path);
}

type Encoding = 'br' | 'gzip' | 'identity';

/** Brotli when the browser takes it, else gzip, else the plain page. */
function acceptedEncoding(request: FastifyRequest, page: HtmlPage): Encoding {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const takes = (name: string) => new RegExp(`\\b${name}\\b(?!;q=0(\\.0+)?\\b)`).test(accepted);
  if (page.br && takes('br')) return 'br';
  if (page.gzip && takes('gzip')) return 'gzip';
  return 'identity';
}

/**
 * Serves the built web app from the API's port. A public page prerendered at build time is
 * sent in the reader's language (prerendered-pages.ts), or as the server draws it with its own
 * data (live-pages.ts); other client-side routes fall back to index.html. Without a build
 * (tests, `npm run dev`) only the API answers. `version` reads a cache version (database.ts).
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDistDir = DEFAULT_WEB_DIST,
  version: (name: 'plans') => Promise<number | undefined> = async () => undefined,
) {
  const indexPath = join(webDistDir, 'index.html');
  const hasBuild = existsSync(indexPath);
  // Every client-side route answers this same small page; read once, with its compressed forms.
  const indexHtml = hasBuild ? readHtmlPage(indexPath) : undefined;
  const prerendered = hasBuild ? readPrerenderedPages(webDistDir) : new Map<string, HtmlPage>();
  const live = hasBuild ? livePages(app, webDistDir, version) : undefined;
  if (hasBuild) {
    await registerPublicPlugin(app, fastifyStatic, {
      root: webDistDir,
      index: false,
      // The build writes a .br and a .gz beside each text file (apps/web/vite.config.ts): sent
      // by Accept-Encoding with Vary, never compressed per request.
      preCompressed: true,
      wildcard: false, // routes for the files present at start-up; the rest falls through to the handler below
      // A route each is a GET and a HEAD in the router, kept for the life of the process: the
      // compressed forms are found on disk by `preCompressed`, and the prerendered pages are
      // sent from memory by the handler below. Routes for those 650 files held about 10 MB.
      globIgnore: ['pages/**', '**/*.br', '**/*.gz'],
      setHeaders(res: { header(name: string, value: string): void }, path: string) {
        // Hashed assets never change; index.html must always be revalidated.
        const immutable = path.includes(`${join(webDistDir, 'assets')}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    if (indexHtml && isClientRoute(request)) {
      const address = request.url.split('?')[0]!;
      const language = readerLanguage(request);
      const page =
        (await live?.page(language, address)) ??
        prerendered.get(`${language} ${address}`) ??
        indexHtml;
      const encoding = acceptedEncoding(request, page);
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding, accept-language, cookie')
        .type('text/html; charset=utf-8')
        .send(encoding === 'br' ? page.br! : encoding === 'gzip' ? page.gzip!() : page.identity());
    }
    return sendNotFound(request, reply);
  });
  return { hasBuild };
}
