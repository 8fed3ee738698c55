import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dataHeaders } from '../plugins/security-headers.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';

// A hijacked answer skips the hooks that add these.
const SECURITY_HEADERS = dataHeaders(false);

/** Why a stream ended before its `end` event; the client reconnects after `retryAfterMs`. */
type RetryReason = 'database_unavailable' | 'server_restarting';
const RETRY_AFTER_MS: Record<RetryReason, number> = {
  database_unavailable: 5_000,
  // Another process answers the reconnection at once (the load balancer stops sending here).
  server_restarting: 1_000,
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Open event streams, each ended with a `retry` event when the app starts closing. */
    eventStreams: Set<(reason: RetryReason) => void>;
  }
}

/**
 * A draining process would hold a stream open until SHUTDOWN_TIMEOUT and then cut it: streams
 * end at once instead, with a `retry` event, so their clients follow the job elsewhere.
 */
export function endEventStreamsOnClose(app: FastifyInstance) {
  const streams = new Set<(reason: RetryReason) => void>();
  app.decorate('eventStreams', streams);
  app.addHook('preClose', async () => {
    for (const end of streams) end('server_restarting');
  });
}

/**
 * Answers with Server-Sent Events: `watch` calls `send` with the state on every change until it
 * returns or the client goes away. Each state is a `progress` event, the final one an `end`
 * event. A stream that must stop first (the database cannot serve now, the process drains)
 * ends with a `retry` event saying why and when to reconnect, never silently. Headers keep
 * proxies from buffering or caching the stream.
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
  const retry = (reason: RetryReason) => {
    if (closed.signal.aborted) return;
    const retryAfterMs = RETRY_AFTER_MS[reason];
    const data = JSON.stringify({ reason, retryAfterMs });
    reply.raw.write(`retry: ${retryAfterMs}\nevent: retry\ndata: ${data}\n\n`);
    closed.abort();
  };
  const streams = request.server.eventStreams as FastifyInstance['eventStreams'] | undefined;
  streams?.add(retry);
  try {
    await watch((state, final) => {
      const event = final ? 'end' : 'progress';
      reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(state)}\n\n`);
    }, closed.signal);
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      request.log.warn(`event stream ended for a retry: ${(err as Error).message}`);
      retry('database_unavailable');
    } else request.log.error({ err }, 'event stream stopped');
  } finally {
    streams?.delete(retry);
    reply.raw.end();
  }
}
