import type { FastifyInstance } from 'fastify';

/** Asked every few seconds by orchestrators and monitors: logged only at `debug`. */
const HEALTH = /^\/api\/health(\/|$)/;

/**
 * One line per request at `info` (issue #35): method, route pattern (never the URL itself,
 * whose query may carry a token), status, time and the request id, written once the answer
 * has gone. Fastify's own two lines per request (in and out, with headers) are turned off in
 * app.ts; errors keep their own lines from the error handler.
 */
export function registerRequestLog(app: FastifyInstance) {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? '(no route)';
    const level = HEALTH.test(route) ? 'debug' : 'info';
    request.log[level](
      {
        method: request.method,
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
}
