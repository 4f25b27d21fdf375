/** /healthz: the build this instance serves, and 503 while it drains or closes (server/plugins/drain.ts). */
import type { FastifyPluginAsync } from 'fastify';
import { CACHE } from '../plugins/securityHeaders.ts';

export const healthRoutes: FastifyPluginAsync<{ buildId: string }> = async (app, { buildId }) => {
  app.get(
    '/healthz',
    // Never shed: a lagging instance is busy, not broken, and an orchestrator must not restart it for that.
    { config: { pressureHandler: () => undefined } },
    async (_request, reply) => {
      reply.header('cache-control', CACHE.never);
      if (app.isDraining()) {
        return reply.code(503).header('retry-after', '1').send({ status: 'draining', buildId });
      }
      return { status: 'ok', buildId };
    },
  );
};
