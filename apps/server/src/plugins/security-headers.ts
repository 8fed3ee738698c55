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
 * Every answer (pages, API, errors, 404s) carries the security headers and its request id.
 * @fastify/helmet rebuilt helmet and re-parsed the CSP on every request, a fifth of the CPU
 * of /api/health; the same headers are now computed at start-up and copied on. A callback
 * hook, not an async one: it runs on every request and needs no promise.
 */
export function registerSecurityHeaders(app: FastifyInstance, https: boolean) {
  const headers = securityHeaders(https);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    done();
  });
}
