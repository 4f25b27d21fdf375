import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { createAccounts } from './accounts.ts';
import { type ApiConfig, readApiConfig } from './config.ts';
import { type OpenDatabase, openDatabase } from './database/open.ts';
import { fastifyTrustProxy, type TrustProxy } from './environment.ts';
import type { ApiLog } from './logSafe.ts';
import { apiPlugin } from './plugin.ts';
import { formsPlugin } from './routes/forms.ts';

export interface ApiAppOptions {
  config?: ApiConfig;
  /** An already open database; otherwise `config.database` is opened, and closed with the app. */
  database?: OpenDatabase;
  now?: () => number;
  log?: ApiLog;
  /** How the sign-in slowdown waits (tests record it instead). */
  sleep?: (ms: number) => Promise<void>;
  /** The proxies in front whose X-Forwarded-For to believe (TRUST_PROXY: a hop count or their addresses). */
  trustProxy?: TrustProxy;
  /** The failure template of `/login` for the form routes (api/forms.ts); none: a plain failure page. */
  loginTemplate?: () => Promise<string | undefined>;
  /** Told of every route as it is registered (the OpenAPI test lists them with it). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * A Fastify instance serving only the demo API under /api and its form routes (`POST /login`, `/logout`,
 * `/profile`, api/forms.ts): what `vite` and `vite preview` route
 * /api/* into, what tests inject requests into, and what api/main.ts listens with.
 * Resolves once the database is open and migrated, or rejects with a DatabaseOpenError.
 */
export async function createApiApp(
  options: ApiAppOptions = {},
): Promise<{ app: FastifyInstance; database: OpenDatabase }> {
  const config = options.config ?? readApiConfig();
  const database =
    options.database ??
    (await openDatabase(config.database, { migrate: config.migrateOnStart, demoData: config.demoData }));
  const app = Fastify({ logger: false, trustProxy: fastifyTrustProxy(options.trustProxy ?? false) });
  if (!options.database) app.addHook('onClose', () => database.close());
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  const accounts = createAccounts({
    db: database.db,
    config,
    ...(options.now ? { now: options.now } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
  // A plugin that fails to load rejects its `register` (or `ready`): the app is closed, and with it the
  // database it opened, so a failed start leaves no embedded folder locked.
  try {
    await app.register(apiPlugin, {
      prefix: '/api',
      db: database.db,
      config,
      accounts,
      ...(options.now ? { now: options.now } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    await app.register(formsPlugin, {
      accounts,
      bodyLimitBytes: config.bodyLimitBytes,
      loginTemplate: options.loginTemplate ?? (async () => undefined),
      ...(options.log ? { log: options.log } : {}),
    });
    await app.ready();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  return { app, database };
}
