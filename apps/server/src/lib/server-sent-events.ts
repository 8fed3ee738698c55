import type { FastifyReply, FastifyRequest } from 'fastify';
import { dataHeaders } from '../plugins/security-headers.js';

// A hijacked answer skips the hooks that add these.
const SECURITY_HEADERS = dataHeaders(false);

/**
 * Answers with Server-Sent Events: `watch` calls `send` with the state on every change until it
 * returns or the client goes away. Each state is a `progress` event, the final one an `end`
 * event. Headers keep proxies from buffering or caching the stream.
 */
export async function streamEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  watch: (send: (state: unknown, final: boolean) => void, signal: AbortSignal) => Promise<unknown>,
): Promise<void> {
  reply.hijack();
  reply.raw.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'x-request-id': request.id,
  });
  const closed = new AbortController();
  reply.raw.once('close', () => closed.abort());
  try {
    await watch((state, final) => {
      const event = final ? 'end' : 'progress';
      reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(state)}\n\n`);
    }, closed.signal);
  } catch (err) {
    request.log.error({ err }, 'event stream stopped');
  } finally {
    reply.raw.end();
  }
}
