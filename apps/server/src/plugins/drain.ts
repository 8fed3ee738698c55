import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Graceful drain (SIGTERM): the server stops accepting connections and lets requests finish
 * within SHUTDOWN_TIMEOUT; those still open then (a slow upload, a long wait for a job) are
 * answered 503 service_unavailable with Retry-After, so a client retries on another process,
 * and their connections closed.
 */
export function trackOpenRequests(app: FastifyInstance) {
  const open = new Set<FastifyReply>();
  // Callback hooks: they run on every request, and an async one costs a promise each time.
  app.addHook('onRequest', (_request, reply, done) => {
    open.add(reply);
    done();
  });
  app.addHook('onResponse', (_request, reply, done) => {
    open.delete(reply);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    for (const reply of open) if (reply.request === request) open.delete(reply);
    done();
  });

  return {
    /** Answers every request still open with 503, then closes every connection. */
    endOpenRequests() {
      for (const reply of open) {
        if (reply.sent || reply.raw.headersSent) reply.raw.end();
        else
          reply.status(503).header('connection', 'close').header('retry-after', '5').send({
            error: 'This server is restarting. Please try again.',
            code: 'service_unavailable',
          });
      }
      open.clear();
      // Whatever is left (idle keep-alive sockets, bodies still arriving) is cut.
      setImmediate(() => app.server.closeAllConnections());
    },
  };
}
