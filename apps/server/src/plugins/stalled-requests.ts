import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ErrorEnvelope } from '@refract/contracts';

const hasBody = (raw: IncomingMessage) =>
  Number(raw.headers['content-length'] ?? 0) > 0 || raw.headers['transfer-encoding'] !== undefined;

/** What a stalled client gets before its connection closes; written raw, as no reply is under way. */
function timeoutResponse(error: string) {
  const body = JSON.stringify({ error, code: 'upload_timeout' } satisfies ErrorEnvelope);
  return [
    'HTTP/1.1 408 Request Timeout',
    'content-type: application/json; charset=utf-8',
    'x-content-type-options: nosniff',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * A request body that stops arriving for `idleMs`, or is still arriving after `totalMs`, gets
 * 408 upload_timeout and its connection is closed: a stalled or dripping client cannot hold a
 * connection, a handler and a temp file. Progress is read off the socket's byte count, which
 * leaves Node's own socket timeouts (keep-alive) alone.
 *
 * Only routes that take a body get the watch: Fastify never reads the body of a GET or HEAD,
 * so those answer at once and need no hook on every request.
 */
export function closeStalledRequests(
  app: FastifyInstance,
  { idleMs, totalMs }: { idleMs: number; totalMs: number },
) {
  async function watchBody(request: FastifyRequest, reply: FastifyReply) {
    const raw = request.raw;
    if (!hasBody(raw)) return;
    const socket = raw.socket;
    const started = Date.now();
    let lastBytes = socket.bytesRead;
    let lastProgress = started;
    const cutOff = (reason: string) => {
      clearInterval(timer);
      request.log.info(`request body cut off: ${reason}`);
      socket.end(timeoutResponse(reason), () => socket.destroy());
    };
    const timer = setInterval(
      () => {
        const now = Date.now();
        if (socket.bytesRead !== lastBytes) {
          lastBytes = socket.bytesRead;
          lastProgress = now;
        }
        if (now - lastProgress >= idleMs)
          cutOff(`The upload stopped: nothing arrived for ${seconds(idleMs)}`);
        else if (now - started >= totalMs)
          cutOff(`The upload took longer than ${seconds(totalMs)}`);
      },
      Math.max(50, Math.min(idleMs, totalMs) / 4),
    );
    timer.unref();
    // Done once the body has all arrived, or the route answered without reading it all.
    const disarm = () => clearInterval(timer);
    raw.once('end', disarm);
    raw.once('close', disarm);
    reply.raw.once('finish', disarm);
  }
  app.addHook('onRoute', (route: RouteOptions) => {
    if ([route.method].flat().every((method) => method === 'GET' || method === 'HEAD')) return;
    route.onRequest = [...[route.onRequest ?? []].flat(), watchBody];
  });
}
