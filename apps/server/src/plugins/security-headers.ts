import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

function helmetOptions(https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine injects its CSS variables in <style> tags.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: https,
    crossOriginEmbedderPolicy: false,
  };
}

/** The headers helmet writes with these options, worked out once: they never vary by request. */
export function securityHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet(helmetOptions(https))(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    (err?: unknown) => {
      if (err) throw err;
    },
  );
  return headers;
}

/**
 * The headers of an answer that is not a page (JSON, files, events), after OWASP's REST
 * cheat sheet: a browser that renders one anyway (an SVG result opened in a tab, an API
 * address typed in) may load nothing, run nothing and be framed by nobody. (A Web Worker's
 * script takes its CSP from its own answer: one would have to be served with the page set.)
 */
export function dataHeaders(https: boolean): Record<string, string> {
  const page = securityHeaders(https);
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': page['referrer-policy']!,
    'cross-origin-resource-policy': page['cross-origin-resource-policy']!,
  };
  if (page['strict-transport-security'])
    headers['strict-transport-security'] = page['strict-transport-security'];
  return headers;
}

const isPage = (contentType: unknown) =>
  typeof contentType === 'string' && contentType.startsWith('text/html');

/**
 * Every answer (pages, API, errors, 404s) carries security headers and its request id. Pages
 * (text/html) get the whole set helmet writes, with the app's CSP; every other answer gets
 * the short set above: the page-only headers were half the bytes of a small JSON answer and
 * an eighth of /api/health's throughput (bench/results/api-overhead.md). Both sets are
 * computed at start-up (@fastify/helmet rebuilt helmet and re-parsed the CSP on every
 * request). Chosen in onSend, when the answer's type is known; a callback hook, not an async
 * one: it runs on every answer and needs no promise.
 */
export function registerSecurityHeaders(app: FastifyInstance, https: boolean) {
  const page = securityHeaders(https);
  const data = dataHeaders(https);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(isPage(reply.getHeader('content-type')) ? page : data);
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}
