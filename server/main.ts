/**
 * `npm start`: serves the production build. Built to dist-server/main.mjs by vite.server.config.ts, and copied
 * into the artifact as .output/server/index.mjs (`npm run serve`).
 *
 * Environment: PORT (4173), HOST (localhost), DIST_DIR (dist), DATA_DIR (.data), IMAGE_CACHE_DIR
 * (.data/image-cache), DEMO_API_DELAY_MS, HSTS=1 behind TLS, TRUST_PROXY=1 behind a reverse proxy,
 * SHUTDOWN_GRACE_MS (10000), LOG_LEVEL (info), VITE_API_BASE_URL (defaults to what the build had),
 * METRICS_PORT / METRICS_TOKEN (Prometheus metrics on their own port, or at /metrics with a bearer token).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import { buildServer } from './app.ts';
import { serverLayout } from './layout.ts';
import { readMetricsConfig } from './metrics.ts';
import { BUILD_ENV_FILE, ICON_FALLBACK_URL } from './securityHeaders.ts';

/** A checkout's dist/ and api/fixtures/images/, or the artifact's public/ and server/images/ (server/layout.ts). */
const layout = serverLayout(import.meta.url);
const env = process.env;

function flag(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

function whole(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  if (/^\d+$/.test(value)) return Number(value);
  console.error(`${name}=${JSON.stringify(value)} is not a whole number; using ${fallback}.`);
  return fallback;
}

const port = whole(env.PORT, 4173, 'PORT');
const host = env.HOST || 'localhost';
const dataDir = path.resolve(env.DATA_DIR ?? '.data');
const distDir = path.resolve(env.DIST_DIR ?? layout.distDir);

/** The API address the build used (build/finalizeBuild.ts), so connect-src follows it; the environment wins. */
function builtApiBaseUrl(): string | undefined {
  try {
    const { apiBaseUrl } = JSON.parse(readFileSync(path.join(distDir, BUILD_ENV_FILE), 'utf8'));
    return typeof apiBaseUrl === 'string' ? apiBaseUrl : undefined;
  } catch {
    return undefined;
  }
}

/** Fails with one line, not a stack: a missing build, an unreadable data folder, a database that will not open. */
async function start() {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    console.error(`No production build in ${distDir}: run \`npm run build\` first.`);
    process.exit(1);
  }
  try {
    return await buildServer({
      distDir,
      dataDir,
      imagesDir: layout.imagesDir,
      imageCacheDir: path.resolve(env.IMAGE_CACHE_DIR ?? path.join(dataDir, 'image-cache')),
      headers: {
        apiBaseUrl: env.VITE_API_BASE_URL || builtApiBaseUrl(),
        iconFallbackUrl: ICON_FALLBACK_URL,
        hsts: flag(env.HSTS),
      },
      logger: { level: env.LOG_LEVEL || 'info' },
      trustProxy: flag(env.TRUST_PROXY),
      metrics: { ...readMetricsConfig(env), host },
    });
  } catch (error) {
    console.error(`Could not start the server: ${(error as Error).message}`);
    process.exit(1);
  }
}

const app = await start();

// SIGTERM/SIGINT: stop accepting, let in-flight requests finish within the grace period, then exit 0. A second
// signal, or the grace period running out, exits 1 at once.
closeWithGrace(
  { delay: whole(env.SHUTDOWN_GRACE_MS, 10_000, 'SHUTDOWN_GRACE_MS') },
  async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  },
);

try {
  await app.listen({ port, host });
} catch (error) {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE')
    console.error(`Port ${port} on ${host} is already in use: stop what holds it, or set PORT.`);
  else if (code === 'EACCES')
    console.error(`Not allowed to listen on port ${port} on ${host}: set PORT above 1023.`);
  else console.error(`Could not start the server: ${(error as Error).message}`);
  process.exit(1);
}
