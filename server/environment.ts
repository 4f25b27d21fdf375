/**
 * The production server's environment: its own variables beside the API's (api/config.ts API_ENVIRONMENT), one
 * schema read once at start (api/environment.ts). `npm run serve -- --check-config` prints what it would run
 * with, secrets masked. docs/server.md has the production checklist.
 */
import { API_ENVIRONMENT } from '../api/config.ts';
import {
  apiAddress,
  buildFolder,
  folder,
  host,
  oneOf,
  readEnvironment,
  secret,
  type Values,
  whole,
} from '../api/environment.ts';
import { RATE_LIMIT_DEFAULTS } from './plugins/rateLimit.ts';

export const SERVER_ENVIRONMENT = {
  PORT: whole('the port the site listens on', 4173, { min: 1, max: 65_535 }),
  HOST: host('the interface it listens on (0.0.0.0 in a container)', 'localhost'),
  DIST_DIR: buildFolder('the build to serve (default: the public/ or dist/ beside the server)'),
  IMAGE_CACHE_DIR: folder('rendered image variants (default: DATA_DIR/image-cache)', null),
  SHUTDOWN_GRACE_MS: whole('how long in-flight requests may finish after SIGTERM', 10_000, { min: 0 }),
  DRAIN_DELAY_MS: whole(
    'after SIGTERM, how long /healthz answers 503 while requests are still served, before the port closes',
    0,
    { min: 0 },
  ),
  MAX_EVENT_LOOP_DELAY_MS: whole(
    'shed load (503 + Retry-After) while the event loop lags more than this on average (0: never)',
    1_000,
    { min: 0 },
  ),
  API_REQUESTS_PER_MINUTE: whole(
    'requests to /api/* one client address may make a minute, counted across instances',
    RATE_LIMIT_DEFAULTS.apiPerMinute,
  ),
  IMAGE_VARIANTS_PER_MINUTE: whole(
    'new image variants one client address may have rendered a minute, counted across instances',
    RATE_LIMIT_DEFAULTS.imageVariantsPerMinute,
  ),
  LOG_LEVEL: oneOf('the log level', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  METRICS_PORT: whole('a port for Prometheus metrics alone (off when unset)', 0, { min: 1, max: 65_535 }),
  METRICS_HOST: host('the interface the metrics port listens on', '127.0.0.1'),
  METRICS_TOKEN: secret('bearer token that opens /metrics on the site’s port (at least 32 characters)'),
  UV_THREADPOOL_SIZE: whole('libuv threads for files, hashes and image renders (half go to renders)', 16, {
    max: 1024,
  }),
  VITE_API_BASE_URL: apiAddress('the API address the CSP allows, if not the one the build had'),
  ...API_ENVIRONMENT,
} as const;

export type ServerEnvironment = Values<typeof SERVER_ENVIRONMENT>;

export function readServerEnvironment(
  env: Record<string, string | undefined> = process.env,
): ServerEnvironment {
  return readEnvironment(SERVER_ENVIRONMENT, env);
}
