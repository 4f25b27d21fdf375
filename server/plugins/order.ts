/**
 * The plugins that hook or decorate every request, in the order every request meets them (hooks run in the order
 * they are added). server/app.ts registers them before any route.
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../api/database/schema.ts';
import type { ServerOptions } from '../options.ts';
import { drainPlugin } from './drain.ts';
import { errorsPlugin } from './errors.ts';
import { loadSheddingPlugin } from './loadShedding.ts';
import { type MetricsSources, metricsPlugin } from './metrics.ts';
import { publicHostPlugin } from './publicHost.ts';
import { RATE_LIMIT_DEFAULTS, rateLimitPlugin } from './rateLimit.ts';
import { databaseStore } from './rateLimitStore.ts';
import { requestIdPlugin } from './requestId.ts';
import { requestLogPlugin } from './requestLog.ts';
import { securityHeadersPlugin } from './securityHeaders.ts';

export async function registerRequestPlugins(
  app: FastifyInstance,
  options: ServerOptions,
  inputs: { security: Record<string, string>; sources: MetricsSources; rateLimitDb: Kysely<Database> },
): Promise<void> {
  // Hooks run in the order they are added, so the order below is the order every request meets them: its log
  // context first, then the Host check and the shutdown's 503 (both refusals still logged, with headers and id).
  await app.register(requestLogPlugin);
  await app.register(securityHeadersPlugin, { headers: inputs.security });
  await app.register(requestIdPlugin);
  await app.register(publicHostPlugin, { publicOrigin: options.publicOrigin ?? null });
  await app.register(drainPlugin);
  await app.register(metricsPlugin, { config: options.metrics, sources: inputs.sources });
  await app.register(loadSheddingPlugin, options.loadShedding ?? { maxEventLoopDelayMs: 0 });
  await app.register(rateLimitPlugin, {
    ...(options.rateLimits ?? RATE_LIMIT_DEFAULTS),
    store: options.rateLimitStore ?? databaseStore(inputs.rateLimitDb),
  });
  // Static files are compressed at build time (build/precompress.ts); this covers API JSON and the rest.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  // Before the routes, which keep the error handler their scope had when they were added.
  await app.register(errorsPlugin);
}
