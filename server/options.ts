/**
 * The server's options (what `buildServer`, server/app.ts, takes), and those options from its environment
 * (server/environment.ts): what `npm start` runs with, and what the tests of the production recipe build the
 * server with, so the two cannot differ.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { type ApiConfig, apiConfigFrom } from '../api/config.ts';
import type { OpenDatabase } from '../api/database/open.ts';
import type { TrustProxy } from '../api/environment.ts';
import type { ServerEnvironment } from './environment.ts';
import type { ServerLayout } from './layout.ts';
import type { LoadShedding } from './plugins/loadShedding.ts';
import { type MetricsConfig, metricsConfigFrom } from './plugins/metrics.ts';
import type { RateLimits } from './plugins/rateLimit.ts';
import { BUILD_ENV_FILE, type HeaderOptions, ICON_FALLBACK_URL } from './plugins/securityHeaders.ts';

import type { PageOptions } from './render/setup.ts';

export interface ServerOptions {
  /** The build to serve (absolute). */
  distDir: string;
  /** The demo API's data folder. */
  dataDir: string;
  /** Source images of the optimiser. */
  imagesDir: string;
  /** Where rendered image variants are kept. */
  imageCacheDir: string;
  maxRendersInFlight?: number;
  headers: HeaderOptions;
  /** Pino options, or false in tests. */
  logger?: boolean | Record<string, unknown>;
  /** A request not answered by then is ended with 408 (node's requestTimeout). */
  requestTimeoutMs?: number;
  /**
   * The proxies in front whose X-Forwarded-For to believe (TRUST_PROXY: a hop count or their addresses), so
   * limits and logs see the client's address; false: the socket's.
   */
  trustProxy?: TrustProxy;
  /**
   * Where the site lives (PUBLIC_ORIGIN): a request whose Host names another site gets 421 on every route but
   * /healthz (server/plugins/publicHost.ts). Null: any Host, as on localhost.
   */
  publicOrigin?: string | null;
  /** The demo API's configuration; by default read from the environment with DATA_DIR = dataDir. */
  api?: ApiConfig;
  /** Prometheus metrics (server/plugins/metrics.ts); off when omitted. */
  metrics?: MetricsConfig;
  /** The demo API's database, already open (tests); by default the API's configuration names it. */
  database?: OpenDatabase;
  /** Load shedding (MAX_EVENT_LOOP_DELAY_MS, server/plugins/loadShedding.ts); off when omitted or 0. */
  loadShedding?: LoadShedding;
  /**
   * Per-address limits on /api/* and on new image variants (server/plugins/rateLimit.ts); the defaults when
   * omitted.
   */
  rateLimits?: RateLimits;
  /**
   * Where those limits count: the database's store (server/plugins/rateLimitStore.ts) unless given. Only the
   * benchmark gives another (scripts/bench/bench-request-limits.mjs: in memory, to measure what the database costs).
   */
  rateLimitStore?: FastifyRateLimitStoreCtor;
  /** The pages rendered on request: the cache's size, the render limits (server/render/). */
  pages?: PageOptions;
}

/** The API address the build used (build/finalizeBuild.ts), so connect-src follows it; the environment wins. */
function builtApiBaseUrl(distDir: string): string | undefined {
  try {
    const { apiBaseUrl } = JSON.parse(readFileSync(path.join(distDir, BUILD_ENV_FILE), 'utf8'));
    return typeof apiBaseUrl === 'string' ? apiBaseUrl : undefined;
  } catch {
    return undefined;
  }
}

/** `layout`: where the build and the images are — a checkout's, or the artifact's (server/layout.ts). */
export function serverOptionsFrom(
  env: ServerEnvironment,
  layout: ServerLayout,
): ServerOptions & { api: ApiConfig } {
  const dataDir = path.resolve(env.DATA_DIR);
  const distDir = path.resolve(env.DIST_DIR ?? layout.distDir);
  const api = apiConfigFrom({ ...env, DATA_DIR: dataDir });
  return {
    distDir,
    dataDir,
    imagesDir: layout.imagesDir,
    imageCacheDir: path.resolve(env.IMAGE_CACHE_DIR ?? path.join(dataDir, 'image-cache')),
    headers: {
      apiBaseUrl: env.VITE_API_BASE_URL ?? builtApiBaseUrl(distDir),
      iconFallbackUrl: ICON_FALLBACK_URL,
      // HSTS and the Secure cookie go together: both follow an https PUBLIC_ORIGIN.
      hsts: api.secureCookie,
    },
    logger: { level: env.LOG_LEVEL },
    trustProxy: env.TRUST_PROXY,
    publicOrigin: api.publicOrigin,
    api,
    metrics: metricsConfigFrom(env),
    loadShedding: { maxEventLoopDelayMs: env.MAX_EVENT_LOOP_DELAY_MS },
    rateLimits: {
      apiPerMinute: env.API_REQUESTS_PER_MINUTE,
      imageVariantsPerMinute: env.IMAGE_VARIANTS_PER_MINUTE,
    },
  };
}
