/**
 * /healthz: the build this instance serves, and 503 while it drains or closes (server/plugins/drain.ts). With
 * pages rendered on request it says how they fare (server/render/setup.ts): `degraded` with the reason when the
 * database does not answer (pages in the cache are served stale, others fail) or the notification connection is
 * lost (pages are rendered afresh until it is back). Still 200: an instance serving stale pages is more use than
 * none, and every instance on one database would be pulled out together.
 */
import type { FastifyPluginAsync } from 'fastify';
import { CACHE } from '../plugins/securityHeaders.ts';
import type { PagesHealth } from '../render/setup.ts';

export interface HealthOptions {
  buildId: string;
  pages?: () => Promise<PagesHealth> | undefined;
}

export const healthRoutes: FastifyPluginAsync<HealthOptions> = async (app, { buildId, pages }) => {
  app.get(
    '/healthz',
    // Never shed: a lagging instance is busy, not broken, and an orchestrator must not restart it for that.
    { config: { pressureHandler: () => undefined } },
    async (_request, reply) => {
      reply.header('cache-control', CACHE.never);
      if (app.isDraining()) {
        return reply.code(503).header('retry-after', '1').send({ status: 'draining', buildId });
      }
      const health = await pages?.();
      if (!health) return { status: 'ok', buildId };
      return { status: health.status, buildId, pages: health };
    },
  );
};
