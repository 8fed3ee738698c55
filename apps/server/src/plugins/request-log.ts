import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Asked every few seconds by orchestrators and monitors: logged only at `debug`. */
const HEALTH = /^\/api\/health(\/|$)/;

/**
 * One line per request at `info`, in place of Fastify's two (in and out, with
 * headers): method, route pattern (never the URL itself, whose query may carry a token),
 * status, time and the request id, written once the answer has gone. Fastify's other lines
 * (errors, streams cut short) are kept.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const route = request.routeOptions.url ?? '(no route)';
    const line = {
      method: request.method,
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log[HEALTH.test(route) ? 'debug' : 'info'](line, 'request');
  }
}
