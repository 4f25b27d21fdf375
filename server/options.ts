/**
 * The server's options from its environment (server/environment.ts): what `npm start` runs with, and what the
 * tests of the production recipe build the server with, so the two cannot differ.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type ApiConfig, apiConfigFrom } from '../api/config.ts';
import type { ServerOptions } from './app.ts';
import type { ServerEnvironment } from './environment.ts';
import type { ServerLayout } from './layout.ts';
import { metricsConfigFrom } from './metrics.ts';
import { BUILD_ENV_FILE, ICON_FALLBACK_URL } from './securityHeaders.ts';

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
