/**
 * The demo API (api/plugin.ts, on Kysely over PGlite or PostgreSQL) inside the production server, on the database
 * the server opens and migrates before anything else and closes last (server/app.ts: the per-address limits count
 * in it too). The API answers under /api, its HTML forms (api/routes/forms.ts) at `POST /login`,
 * `/logout` and `/profile` (DEMO_API_DELAY_MS is the API's own setting). This is the only place the production
 * server knows how the API is built; its answers go through the server's hooks (security headers, request logs,
 * compression).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { type Accounts, createAccounts } from '../../api/accounts.ts';
import type { ApiConfig } from '../../api/config.ts';
import type { OpenDatabase } from '../../api/database/open.ts';
import type { ApiLog } from '../../api/logSafe.ts';
import { apiPlugin } from '../../api/plugin.ts';
import { formsPlugin } from '../../api/routes/forms.ts';
import { FORM_TEMPLATE_DIR } from '../../core/formState.ts';
import type { MetricsSources } from '../plugins/metrics.ts';
import { consoleLogger } from '../plugins/requestLog.ts';

export interface DemoApiAdapterOptions {
  config: ApiConfig;
  log: ApiLog;
  /** The failure template of `/login` for the form routes (api/forms.ts). */
  loginTemplate: () => Promise<string | undefined>;
  /** The same for its sign-up mode (`/login?mode=signup`). */
  signUpTemplate?: () => Promise<string | undefined>;
  /** Receives the accounts the routes share (the server renders the no-JavaScript shell with them). */
  onAccounts?: (accounts: Accounts) => void;
  /** The open, migrated database; whoever opened it closes it. */
  database: OpenDatabase;
}

export const demoApiAdapter: FastifyPluginAsync<DemoApiAdapterOptions> = async (app, options) => {
  const { config, database } = options;
  // One set of accounts for both adapters: the JSON API under /api and the HTML forms at the root.
  const accounts = createAccounts({ db: database.db, config, log: options.log });
  options.onAccounts?.(accounts);
  await app.register(apiPlugin, { prefix: '/api', db: database.db, config, accounts, log: options.log });
  await app.register(formsPlugin, {
    accounts,
    bodyLimitBytes: config.bodyLimitBytes,
    loginTemplate: options.loginTemplate,
    ...(options.signUpTemplate ? { signUpTemplate: options.signUpTemplate } : {}),
    log: options.log,
  });
};

export interface ApiRoutesOptions {
  /** The build, whose failure template of `/login` the form routes fill in. */
  distDir: string;
  config: ApiConfig;
  database: OpenDatabase;
  /** The metrics read the database pool from here. */
  sources: MetricsSources;
  /** Receives the accounts the routes share (the site renders the no-JavaScript shell with them). */
  onAccounts: (accounts: Accounts) => void;
  /** The failure template of `/login`, rendered at start (server/render/setup.ts); else read from the build. */
  loginTemplate?: string;
  /** The same for the sign-up mode of `/login`; else read from the build. */
  signUpTemplate?: string;
}

/**
 * The demo API under /api in the production server, on the database its configuration names under dataDir. Its
 * form routes (POST /login, /logout, /profile) answer a failed sign-in with the prerendered /login filled in,
 * from the failure template the build writes beside it.
 */
export const apiRoutes: FastifyPluginAsync<ApiRoutesOptions> = async (app, options) => {
  const loginTemplateFile = path.join(options.distDir, FORM_TEMPLATE_DIR, 'login.html');
  let loginTemplate: Promise<string | undefined> | undefined;
  const signUpTemplateFile = path.join(options.distDir, FORM_TEMPLATE_DIR, 'signup.html');
  let signUpTemplate: Promise<string | undefined> | undefined;
  options.sources.databasePool = options.database.pool;
  await app.register(demoApiAdapter, {
    onAccounts: options.onAccounts,
    config: options.config,
    database: options.database,
    log: consoleLogger(app.log),
    loginTemplate: () => {
      loginTemplate ??=
        options.loginTemplate !== undefined
          ? Promise.resolve(options.loginTemplate)
          : readFile(loginTemplateFile, 'utf8').catch(() => undefined);
      return loginTemplate;
    },
    signUpTemplate: () => {
      signUpTemplate ??=
        options.signUpTemplate !== undefined
          ? Promise.resolve(options.signUpTemplate)
          : readFile(signUpTemplateFile, 'utf8').catch(() => undefined);
      return signUpTemplate;
    },
  });
};
