/**
 * The production server: one Fastify instance that serves the build in `dist/`, the demo API, the icon endpoint
 * and the image optimiser. This file only configures Fastify (server/fastify.ts) and registers, in order: the
 * plugins that hook every request (server/plugins/order.ts), then the routes by resource (server/routes/).
 * server/main.ts starts it; tests build it and use `inject`.
 */
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Accounts } from '../api/accounts.ts';
import { type ApiConfig, readApiConfig } from '../api/config.ts';
import { type OpenDatabase, openDatabase } from '../api/database/open.ts';
import { fastifyOptions } from './fastify.ts';
import type { ServerOptions } from './options.ts';
import { hashesOfBuild } from './plugins/inlineHashes.ts';
import type { MetricsSources } from './plugins/metrics.ts';
import { registerRequestPlugins } from './plugins/order.ts';
import { contentSecurityPolicy, type PolicyInputs, securityHeaders } from './plugins/securityHeaders.ts';
import {
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
  // The sign-in and sign-up failure pages are rendered at start, and answered with the server's CSP: its hashes join it.
  const hashes = rendering ? mergeHashes(buildHashes, rendering.templateHashes) : buildHashes;
  const security = securityHeaders(hashes, options.headers);
  const app = Fastify(fastifyOptions(options, security, site.shellHtml));

  // The API's database first, opened and migrated before anything listens: the API and the per-address limits
  // (plugins/rateLimitStore.ts) both keep their state in it. Closed last, when the server closes.
  const api = options.api ?? readApiConfig({ ...process.env, DATA_DIR: options.dataDir });
  const opening = { migrate: api.migrateOnStart, demoData: api.demoData };
  const database = options.database ?? (await openDatabase(api.database, opening));
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
  // Filled by the API and image routes.
  const sources: MetricsSources = {};
  await registerRequestPlugins(app, options, { security, sources, rateLimitDb: database.db });

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
    ...rendering?.templates,
  });
  if (rendering && accounts) {
    rendered = await setUpPages(app, {
      loaded: rendering,
      database,
      config: api,
      accounts,
      shellHtml: site.shellHtml,
      policyFor: (page) => contentSecurityPolicy(mergeHashes(built.hashes, page), options.headers),
      origin: rendering.origin,
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
    ...rendered?.site,
  });
}
