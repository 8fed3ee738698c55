import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { healthSchema, readinessSchema, type Readiness } from '@refract/contracts';
import type { AppContext } from '../../app-context.js';
import { settingsRepository } from '../../db/repositories/settings-repository.js';
import { DeadlineExceeded, withDeadline } from '../../lib/deadline.js';
import { volumeMismatch } from '../../services/health/volume-marker.js';
import { silentEngines, type Engines } from '../../media/engines.js';

/** How long readiness waits for the database and Redis before calling them down. */
const CHECK_DEADLINE_MS = 2000;

type Check = Readiness['checks']['database'];

/** Runs one check; its error is told in general terms (the details, with hosts, go to the log). */
async function check(
  what: string,
  work: () => Promise<string | undefined>,
  log: FastifyBaseLogger,
): Promise<Check> {
  try {
    const reason = await withDeadline(work(), CHECK_DEADLINE_MS, what);
    return reason ? { ok: false, reason } : { ok: true };
  } catch (err) {
    log.warn({ err }, `readiness: ${what} failed`);
    return err instanceof DeadlineExceeded
      ? { ok: false, reason: `${what} did not answer within ${CHECK_DEADLINE_MS} ms` }
      : { ok: false, reason: `${what} is unreachable` };
  }
}

/**
 * What each engine can do, without its version: a version tells a stranger which published
 * hole of ffmpeg, Chromium or libheif to try, and nobody but the admin needs it.
 */
function withoutVersions(engines: Engines): Engines {
  const hidden = Object.entries(engines).map(([name, engine]) => [
    name,
    { ...engine, version: null, ...('libvips' in engine ? { libvips: null } : {}) },
  ]);
  return Object.fromEntries(hidden) as Engines;
}

export const healthRoutes =
  (
    context: AppContext,
    jobs: { queueKind: 'local' | 'bullmq'; ping(): Promise<void> },
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['Reference'];
    const settings = settingsRepository(context.database.db);
    const schema = {
      summary: 'Whether the server and its engines are up',
      tags,
      response: { 200: healthSchema },
    };
    const { engines } = context;
    const enginesWithoutVersions = withoutVersions(engines);
    const { imageWorkers, workers: mediaWorkers, cores } = context.config.jobs;
    const workers = { image: imageWorkers, media: mediaWorkers, cores };
    // Anyone may ask whether the server is up; an admin's session also shows engine versions
    // and how many jobs of each kind this process runs at once.
    app.get('/api/health', { config: { access: 'optionalUser' }, schema }, async (request) => {
      const admin = request.user?.is_admin === 1;
      return {
        status: engines.sharp.available ? ('ok' as const) : ('degraded' as const),
        version: context.version,
        db: context.database.kind,
        queue: jobs.queueKind,
        ...(admin ? { workers } : {}),
        engines: admin ? engines : enginesWithoutVersions,
      };
    });

    // Liveness: the process answers. Nothing outside it is asked, so a database outage does
    // not make an orchestrator restart every web process at once.
    app.get(
      '/api/health/live',
      {
        config: { access: 'public' },
        schema: {
          summary: 'Whether this process runs (liveness)',
          tags,
          response: { 200: z.object({ status: z.literal('live') }) },
        },
      },
      async () => ({ status: 'live' as const }),
    );

    // Readiness: send traffic here only if the database (and Redis, when used) answer in time
    // and DATA_DIR is the shared volume. Failures say why (never a secret or a path).
    app.get(
      '/api/health/ready',
      {
        config: { access: 'public' },
        schema: {
          summary: 'Whether this process can serve requests (readiness)',
          tags,
          response: { 200: readinessSchema, 503: readinessSchema },
        },
      },
      async (request, reply) => {
        const [database, queue, dataDir] = await Promise.all([
          check(
            'the database',
            async () => {
              await sql`SELECT 1`.execute(context.database.db);
              return undefined;
            },
            request.log,
          ),
          jobs.queueKind === 'bullmq'
            ? check(
                'Redis',
                async () => {
                  await jobs.ping();
                  return undefined;
                },
                request.log,
              )
            : undefined,
          check(
            'the DATA_DIR check',
            () => volumeMismatch(context.config.dataDir, settings),
            request.log,
          ),
        ]);
        const silent = silentEngines(context.engines, context.config.engines);
        const engines = silent.length
          ? {
              ok: false,
              reason: `${silent.join(' and ')} installed but not answering; probed again each minute`,
            }
          : { ok: true };
        const checks = { database, ...(queue ? { queue } : {}), dataDir, engines };
        const ready = Object.values(checks).every((c) => c.ok);
        if (!ready) request.log.warn({ checks }, 'not ready');
        return reply
          .status(ready ? 200 : 503)
          .header('cache-control', 'no-store')
          .send({ status: ready ? 'ready' : 'not_ready', checks });
      },
    );
  };
