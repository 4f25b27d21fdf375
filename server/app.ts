/**
 * The production server: one Fastify instance that serves the build in `dist/`, the demo API, the icon endpoint
 * and the image optimiser. This file only configures Fastify and registers, in order: the plugins that hook or
 * decorate every request (server/plugins/), then the routes by resource (server/routes/); Fastify's own options
 * are server/fastify.ts's. server/main.ts starts it; tests build it and use `inject`.
 */
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Accounts } from '../api/accounts.ts';
import { type ApiConfig, readApiConfig } from '../api/config.ts';
import { type OpenDatabase, openDatabase } from '../api/database/open.ts';
import { fastifyOptions } from './fastify.ts';
import type { ServerOptions } from './options.ts';
import { drainPlugin } from './plugins/drain.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { hashesOfBuild } from './plugins/inlineHashes.ts';
import { loadSheddingPlugin } from './plugins/loadShedding.ts';
import { type MetricsSources, metricsPlugin } from './plugins/metrics.ts';
import { publicHostPlugin } from './plugins/publicHost.ts';
import { RATE_LIMIT_DEFAULTS, rateLimitPlugin } from './plugins/rateLimit.ts';
import { databaseStore } from './plugins/rateLimitStore.ts';
import { requestIdPlugin } from './plugins/requestId.ts';
import { requestLogPlugin } from './plugins/requestLog.ts';
import {
  contentSecurityPolicy,
  type PolicyInputs,
  securityHeaders,
  securityHeadersPlugin,
} from './plugins/securityHeaders.ts';
import {
  hashesOfHtml,
  type LoadedRenderer,
  loadPages,
  mergeHashes,
  type RenderedPages,
  setUpPages,
} from './render/setup.ts';
import { apiRoutes } from './routes/api.ts';
import { healthRoutes } from './routes/health.ts';
import { iconRoutes } from './routes/icons.ts';
import { imageRoutes } from './routes/images.ts';
import { readSite, type Site, siteRoutes } from './routes/site.ts';

export type { ServerOptions } from './options.ts';

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const distDir = path.resolve(options.distDir);
  const [site, buildHashes, rendering] = await Promise.all([
    readSite(distDir),
    hashesOfBuild(distDir),
    loadPages(distDir, options.publicOrigin ?? undefined),
  ]);
  // The sign-in failure page is rendered at start, and answered with the server's CSP: its hashes join it.
  const hashes = rendering
    ? mergeHashes(
        mergeHashes(buildHashes, hashesOfHtml(rendering.loginTemplate)),
        hashesOfHtml(rendering.signUpTemplate),
      )
    : buildHashes;
  const security = securityHeaders(hashes, options.headers);
  const app = Fastify(fastifyOptions(options, security, site.shellHtml));

  // The API's database first, opened and migrated before anything listens: the API and the per-address limits
  // (plugins/rateLimitStore.ts) both keep their state in it. Closed last, when the server closes.
  const api = options.api ?? readApiConfig({ ...process.env, DATA_DIR: options.dataDir });
  const database =
    options.database ??
    (await openDatabase(api.database, { migrate: api.migrateOnStart, demoData: api.demoData }));
  if (!options.database) app.addHook('onClose', () => database.close());
  try {
    await registerEverything(app, options, { site, security, hashes, rendering, api, database });
  } catch (error) {
    // A failed start leaves no embedded folder leased and no pool open.
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

async function registerEverything(
  app: FastifyInstance,
  options: ServerOptions,
  built: {
    site: Site;
    security: Record<string, string>;
    hashes: PolicyInputs;
    rendering: LoadedRenderer | undefined;
    api: ApiConfig;
    database: OpenDatabase;
  },
): Promise<void> {
  const { site, security, api, database, rendering } = built;
  const distDir = path.resolve(options.distDir);
  // Hooks run in the order they are added, so the order below is the order every request meets them: its log
  // context first, then the Host check and the shutdown's 503 (both refusals still logged, with headers and id).
  await app.register(requestLogPlugin);
  await app.register(securityHeadersPlugin, { headers: security });
  await app.register(requestIdPlugin);
  await app.register(publicHostPlugin, { publicOrigin: options.publicOrigin ?? null });
  await app.register(drainPlugin);
  // Filled by the API and image routes.
  const sources: MetricsSources = {};
  await app.register(metricsPlugin, { config: options.metrics, sources });
  await app.register(loadSheddingPlugin, options.loadShedding ?? { maxEventLoopDelayMs: 0 });
  await app.register(rateLimitPlugin, {
    ...(options.rateLimits ?? RATE_LIMIT_DEFAULTS),
    store: options.rateLimitStore ?? databaseStore(database.db),
  });
  // Static files are compressed at build time (build/precompress.ts); this covers API JSON and the rest.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  // Before the routes, which keep the error handler their scope had when they were added.
  await app.register(errorsPlugin);

  let rendered: RenderedPages | undefined;
  await app.register(healthRoutes, { buildId: site.buildId, pages: () => rendered?.health() });
  let accounts: Accounts | undefined;
  await app.register(apiRoutes, {
    distDir,
    config: api,
    database,
    sources,
    onAccounts: (shared) => {
      accounts = shared;
    },
    ...(rendering
      ? { loginTemplate: rendering.loginTemplate, signUpTemplate: rendering.signUpTemplate }
      : {}),
  });
  if (rendering && accounts) {
    rendered = await setUpPages(app, {
      loaded: rendering,
      database,
      config: api,
      accounts,
      shellHtml: site.shellHtml,
      policyFor: (page) => contentSecurityPolicy(mergeHashes(built.hashes, page), options.headers),
      origin: options.publicOrigin ?? undefined,
      log: app.log,
      ...(options.pages ? { options: options.pages } : {}),
    });
  }
  await app.register(iconRoutes);
  await app.register(imageRoutes, {
    dir: options.imagesDir,
    cacheDir: options.imageCacheDir,
    maxRendersInFlight: options.maxRendersInFlight,
    sources,
  });
  await app.register(siteRoutes, {
    site,
    accounts: () => accounts,
    pages: rendered?.pages,
    sitemap: rendered?.sitemap,
    signUpTemplate: rendering?.signUpTemplate,
  });
}
