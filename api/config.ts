import path from 'node:path';
import type { DatabaseConfig } from './database/open.ts';
import {
  ConfigError,
  flag,
  folder,
  origin,
  postgresUrl,
  readEnvironment,
  removed,
  secret,
  trustProxy,
  type Values,
  whole,
} from './environment.ts';
import { type Argon2Params, OWASP_ARGON2ID } from './passwords.ts';
import { REPORT_DEFAULTS, type ReportsConfig } from './reports.ts';

export { ConfigError };

/** Everything the demo API can be tuned with; `readApiConfig` builds it from the environment. */
export interface ApiConfig {
  database: DatabaseConfig;
  /** Write the demo accounts and campaigns (DEMO_DATA; on for the embedded database, off for DATABASE_URL). */
  demoData: boolean;
  /** Run pending migrations when the API starts (MIGRATE_ON_START); off: refuse to start on an old schema. */
  migrateOnStart: boolean;
  sessions: {
    /** Signed out after this long without a request. */
    idleSeconds: number;
    /** Signed out this long after signing in, however active. */
    absoluteSeconds: number;
    /** Oldest sessions of a user beyond this many are ended at sign-in. */
    maxPerUser: number;
  };
  /**
   * Where the site lives (PUBLIC_ORIGIN): the only origin allowed to make state-changing requests, and when it
   * is https the session cookie is `__Host-sid; Secure`. Null: the request's own `Host` (direct serving).
   */
  publicOrigin: string | null;
  /** `Secure` and the `__Host-` prefix on the session cookie: an https PUBLIC_ORIGIN. */
  secureCookie: boolean;
  passwords: { argon2: Argon2Params; maxConcurrent: number };
  signInLimits: {
    /** Failed sign-ins allowed from one client address per window, whatever the accounts (then 429). */
    perAddress: number;
    /** Failed sign-ins allowed for one account from one client address per window (then 429). */
    perAccount: number;
    windowSeconds: number;
    /**
     * Past `afterFailures` failures of an account in the window, from anywhere, every attempt on it waits
     * `baseMs`, doubling per failure up to `maxMs`: guessing slows down, the owner is never refused.
     */
    slowdown: { afterFailures: number; baseMs: number; maxMs: number };
  };
  signUpLimits: {
    /** Well-formed sign-ups (made or refused) allowed from one client address per window (then 429). */
    perAddress: number;
    windowSeconds: number;
  };
  bodyLimitBytes: number;
  /** Reports from the browser (./reports.ts): retention, rate limits, read token. */
  reports: ReportsConfig;
  /** Added before every answer, to try slow networks by hand (DEMO_API_DELAY_MS). */
  delayMs: number;
}

export const DEFAULTS = {
  // OWASP ASVS 4.0.3, 3.3.2 at level 2: sign in again after 12 hours, or after 30 minutes idle.
  sessionIdleMinutes: 30,
  sessionAbsoluteHours: 12,
  sessionsPerUser: 10,
  signInFailuresPerAddress: 30,
  signInFailuresPerAccount: 10,
  signInWindowMinutes: 15,
  signInSlowdownAfter: 10,
  signInSlowdownBaseMs: 250,
  signInSlowdownMaxMs: 8_000,
  // A person signs up once, a household a few times: ten an hour stops a script asking which addresses have an
  // account (docs/security.md) long before it learns much.
  signUpsPerAddress: 10,
  signUpWindowMinutes: 60,
  poolSize: 10,
  hashConcurrency: 2,
  bodyLimitBytes: 64 * 1024,
} as const;

/** Every variable the API reads (the production server adds its own: server/environment.ts). */
export const API_ENVIRONMENT = {
  DATA_DIR: folder(
    'the data folder: the embedded database in pglite/, rendered images in image-cache/',
    '.data',
  ),
  DATABASE_URL: postgresUrl('a PostgreSQL server instead of the embedded database'),
  DATABASE_POOL_SIZE: whole('connections to DATABASE_URL', DEFAULTS.poolSize),
  DEMO_DATA: flag('write the demo accounts and campaigns (default: on for the embedded database only)', null),
  MIGRATE_ON_START: flag(
    'run pending migrations at start (0: `npm run db:migrate` is a separate step)',
    true,
  ),
  PUBLIC_ORIGIN: origin(
    'where the site lives, e.g. https://campaigns.example (https: Secure cookie and HSTS)',
  ),
  TRUST_PROXY: trustProxy(
    'proxies in front whose X-Forwarded-For to believe: a hop count or their addresses',
  ),
  SESSION_IDLE_MINUTES: whole('signed out after this long idle', DEFAULTS.sessionIdleMinutes),
  SESSION_ABSOLUTE_HOURS: whole('signed out this long after signing in', DEFAULTS.sessionAbsoluteHours),
  SESSIONS_PER_USER: whole('sessions a user may hold', DEFAULTS.sessionsPerUser),
  ARGON2_MEMORY_KIB: whole('argon2id memory per hash', OWASP_ARGON2ID.memoryCost, {
    min: OWASP_ARGON2ID.memoryCost,
  }),
  ARGON2_TIME_COST: whole('argon2id passes', OWASP_ARGON2ID.timeCost, { min: OWASP_ARGON2ID.timeCost }),
  ARGON2_PARALLELISM: whole('argon2id lanes', OWASP_ARGON2ID.parallelism),
  PASSWORD_HASH_CONCURRENCY: whole('password hashes computed at once', DEFAULTS.hashConcurrency),
  SIGN_IN_FAILURES_PER_ADDRESS: whole(
    'failed sign-ins per address per window',
    DEFAULTS.signInFailuresPerAddress,
  ),
  SIGN_IN_FAILURES_PER_ACCOUNT: whole(
    'failed sign-ins per account from one address per window',
    DEFAULTS.signInFailuresPerAccount,
  ),
  SIGN_IN_WINDOW_MINUTES: whole('the sign-in limits’ window', DEFAULTS.signInWindowMinutes),
  SIGN_IN_SLOWDOWN_AFTER: whole(
    'failures of an account, from anywhere, after which every attempt on it waits',
    DEFAULTS.signInSlowdownAfter,
  ),
  SIGN_UPS_PER_ADDRESS: whole('sign-ups per address per window', DEFAULTS.signUpsPerAddress),
  SIGN_UP_WINDOW_MINUTES: whole('the sign-up limit’s window', DEFAULTS.signUpWindowMinutes),
  REPORTS_MAX_COUNT: whole('reports kept at most', REPORT_DEFAULTS.maxCount),
  REPORTS_MAX_AGE_DAYS: whole('days a report is kept', REPORT_DEFAULTS.maxAgeDays),
  REPORTS_PER_ADDRESS: whole('reports per address per window', REPORT_DEFAULTS.perAddress),
  REPORTS_WINDOW_SECONDS: whole('the reports’ window', REPORT_DEFAULTS.windowSeconds),
  REPORTS_VITALS_PER_ROUTE: whole(
    'vitals samples per address and route per window',
    REPORT_DEFAULTS.vitalsPerRoute,
  ),
  REPORTS_VITALS_WINDOW_SECONDS: whole('the vitals samples’ window', REPORT_DEFAULTS.vitalsWindowSeconds),
  REPORTS_TOKEN: secret('bearer token that opens GET /api/reports (at least 32 characters)'),
  DEMO_API_DELAY_MS: whole('added before every API answer, to try slow networks', 0, { min: 0 }),
  HSTS: removed('PUBLIC_ORIGIN=https://… turns on HSTS and the Secure cookie together'),
  COOKIE_SECURE: removed('PUBLIC_ORIGIN=https://… makes the cookie __Host-sid; Secure'),
} as const;

export type ApiEnvironment = Values<typeof API_ENVIRONMENT>;

type Env = Record<string, string | undefined>;

export function readApiConfig(env: Env = process.env): ApiConfig {
  return apiConfigFrom(readEnvironment(API_ENVIRONMENT, env));
}

/** The API's configuration from its variables as read (server/main.ts reads them with the server's). */
export function apiConfigFrom(values: ApiEnvironment): ApiConfig {
  const database: DatabaseConfig =
    values.DATABASE_URL !== null
      ? { kind: 'postgres', url: values.DATABASE_URL, poolSize: values.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dir: path.join(values.DATA_DIR, 'pglite') };
  return {
    database,
    demoData: values.DEMO_DATA ?? database.kind === 'pglite',
    migrateOnStart: values.MIGRATE_ON_START,
    sessions: {
      idleSeconds: values.SESSION_IDLE_MINUTES * 60,
      absoluteSeconds: values.SESSION_ABSOLUTE_HOURS * 3600,
      maxPerUser: values.SESSIONS_PER_USER,
    },
    publicOrigin: values.PUBLIC_ORIGIN,
    secureCookie: values.PUBLIC_ORIGIN?.startsWith('https:') ?? false,
    passwords: {
      argon2: {
        memoryCost: values.ARGON2_MEMORY_KIB,
        timeCost: values.ARGON2_TIME_COST,
        parallelism: values.ARGON2_PARALLELISM,
      },
      maxConcurrent: values.PASSWORD_HASH_CONCURRENCY,
    },
    signInLimits: {
      perAddress: values.SIGN_IN_FAILURES_PER_ADDRESS,
      perAccount: values.SIGN_IN_FAILURES_PER_ACCOUNT,
      windowSeconds: values.SIGN_IN_WINDOW_MINUTES * 60,
      slowdown: {
        afterFailures: values.SIGN_IN_SLOWDOWN_AFTER,
        baseMs: DEFAULTS.signInSlowdownBaseMs,
        maxMs: DEFAULTS.signInSlowdownMaxMs,
      },
    },
    signUpLimits: {
      perAddress: values.SIGN_UPS_PER_ADDRESS,
      windowSeconds: values.SIGN_UP_WINDOW_MINUTES * 60,
    },
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    reports: {
      maxCount: values.REPORTS_MAX_COUNT,
      maxAgeDays: values.REPORTS_MAX_AGE_DAYS,
      perAddress: values.REPORTS_PER_ADDRESS,
      windowSeconds: values.REPORTS_WINDOW_SECONDS,
      vitalsPerRoute: values.REPORTS_VITALS_PER_ROUTE,
      vitalsWindowSeconds: values.REPORTS_VITALS_WINDOW_SECONDS,
      bodyLimitBytes: REPORT_DEFAULTS.bodyLimitBytes,
      readToken: values.REPORTS_TOKEN,
    },
    delayMs: values.DEMO_API_DELAY_MS,
  };
}

/** A configuration for tests: an in-memory database and the defaults, with `overrides` on top. */
export function testApiConfig(overrides: Partial<ApiConfig> = {}): ApiConfig {
  return { ...readApiConfig({}), database: { kind: 'pglite' }, ...overrides };
}
