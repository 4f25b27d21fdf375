/**
 * The demo API (api/plugin.ts, on Kysely over PGlite or PostgreSQL) inside the production server: the
 * database named by the API's own configuration (DATA_DIR or DATABASE_URL) is opened and migrated before the
 * server listens, and closed when it closes. The API answers under /api, its HTML forms (api/forms.ts) at
 * `POST /login`, `/logout` and `/profile` (DEMO_API_DELAY_MS is the API's own setting). This is the only place the production server knows how the API
 * is built; its answers go through the server's hooks (security headers, request logs, compression).
 */
import type { FastifyPluginAsync } from 'fastify';
import { type Accounts, createAccounts } from '../api/accounts.ts';
import { type ApiConfig, readApiConfig } from '../api/config.ts';
import { type OpenDatabase, openDatabase } from '../api/database/open.ts';
import type { ApiLog } from '../api/logSafe.ts';
import { apiPlugin } from '../api/plugin.ts';
import { formsPlugin } from '../api/routes/forms.ts';

export interface DemoApiAdapterOptions {
  /** Defaults to the environment, as api/main.ts reads it. */
  config?: ApiConfig;
  log: ApiLog;
  /** The failure template of `/login` for the form routes (api/forms.ts). */
  loginTemplate: () => Promise<string | undefined>;
  /** Receives the accounts the routes share (the server renders the no-JavaScript shell with them). */
  onAccounts?: (accounts: Accounts) => void;
  /** Told the opened database (the server's metrics read its pool). */
  onOpen?: (database: OpenDatabase) => void;
  /** An already open database (tests); otherwise the configuration's is opened here and closed with the server. */
  database?: OpenDatabase;
}

export const demoApiAdapter: FastifyPluginAsync<DemoApiAdapterOptions> = async (app, options) => {
  const config = options.config ?? readApiConfig();
  const database =
    options.database ??
    (await openDatabase(config.database, { migrate: config.migrateOnStart, demoData: config.demoData }));
  if (!options.database) app.addHook('onClose', () => database.close());
  options.onOpen?.(database);
  // One set of accounts for both adapters: the JSON API under /api and the HTML forms at the root.
  const accounts = createAccounts({ db: database.db, config, log: options.log });
  options.onAccounts?.(accounts);
  await app.register(apiPlugin, { prefix: '/api', db: database.db, config, accounts, log: options.log });
  await app.register(formsPlugin, {
    accounts,
    bodyLimitBytes: config.bodyLimitBytes,
    loginTemplate: options.loginTemplate,
    log: options.log,
  });
};
