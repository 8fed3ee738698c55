import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { sameSecret } from '../lib/hashing.js';
import type { Metrics } from './metrics.js';

/**
 * `GET /metrics` on the app's own port, for Prometheus with the bearer METRICS_TOKEN (the
 * route's access, plugins/auth.ts). Not there at all without the token.
 */
export function registerMetricsRoute(app: FastifyInstance, config: Config, metrics: Metrics) {
  if (!config.metrics.token) return;
  app.get(
    '/metrics',
    {
      config: { access: 'metrics' },
      schema: {
        summary: 'Prometheus metrics of this process (text format)',
        tags: ['Operations'],
      },
    },
    async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}

/**
 * METRICS_PORT: the metrics on a port of their own, so a worker (which has no HTTP port) and a
 * web process alike can be scraped without opening the app's port. On METRICS_HOST, loopback
 * by default; with METRICS_TOKEN set, it asks for the token too. Resolves once listening.
 */
export async function serveMetricsPort(
  config: Config,
  metrics: Metrics,
  log: { info(line: string): void },
): Promise<Server | undefined> {
  const { port, host, token } = config.metrics;
  if (port === undefined) return undefined;
  const server = createServer((request, response) => {
    const bearer = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const allowed = !token || (bearer !== undefined && sameSecret(bearer, token));
    if (request.url !== '/metrics' || request.method !== 'GET' || !allowed) {
      response.writeHead(allowed ? 404 : 401).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  log.info(`metrics on http://${host}:${port}/metrics`);
  return server;
}
