import path from 'node:path';
import type { DatabaseConfig } from './database/open.ts';
import { type Argon2Params, OWASP_ARGON2ID } from './passwords.ts';
import { type ReportsConfig, readReportsConfig } from './reports.ts';
import { MIN_SECRET_LENGTH } from './secrets.ts';

/** Everything the demo API can be tuned with; `readApiConfig` builds it from the environment. */
export interface ApiConfig {
  database: DatabaseConfig;
  sessions: {
    /** Signed out after this long without a request. */
    idleSeconds: number;
    /** Signed out this long after signing in, however active. */
    absoluteSeconds: number;
    /** Oldest sessions of a user beyond this many are ended at sign-in. */
    maxPerUser: number;
  };
  /** `Secure` and the `__Host-` prefix on the session cookie: for sites served over HTTPS. */
  secureCookie: boolean;
  /**
   * Origins allowed to make state-changing requests. Empty: the request's own `Host` (right for
   * direct serving; behind a proxy that rewrites Host, list the public origin).
   */
  allowedOrigins: string[];
  passwords: { argon2: Argon2Params; maxConcurrent: number };
  signInLimits: {
    /** Failed sign-ins allowed from one client address per window. */
    perAddress: number;
    /** Failed sign-ins allowed for one email address (existing or not) per window, from anywhere. */
    perAccount: number;
    windowSeconds: number;
  };
  bodyLimitBytes: number;
  /** Reports from the browser (./reports.ts): retention, rate limit, read token. */
  reports: ReportsConfig;
  /** Added before every answer, to try slow networks by hand (DEMO_API_DELAY_MS). */
  delayMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEFAULTS = {
  // OWASP ASVS 4.0.3, 3.3.2 at level 2: sign in again after 12 hours, or after 30 minutes idle.
  sessionIdleMinutes: 30,
  sessionAbsoluteHours: 12,
  sessionsPerUser: 10,
  signInFailuresPerAddress: 30,
  signInFailuresPerAccount: 10,
  signInWindowMinutes: 15,
  poolSize: 10,
  hashConcurrency: 2,
  bodyLimitBytes: 64 * 1024,
} as const;

type Env = Record<string, string | undefined>;

export function readApiConfig(env: Env = process.env): ApiConfig {
  const int = (name: string, fallback: number, min = 1) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
      throw new ConfigError(
        `${name}=${JSON.stringify(raw)} is not valid: expected a whole number of at least ${min}.`,
      );
    }
    return Number(raw);
  };
  const secret = (name: string) => readSecret(env, name);
  const url = env.DATABASE_URL;
  const database: DatabaseConfig =
    url !== undefined && url !== ''
      ? {
          kind: 'postgres',
          url: checkDatabaseUrl(url),
          poolSize: int('DATABASE_POOL_SIZE', DEFAULTS.poolSize),
        }
      : { kind: 'pglite', dir: path.join(env.DATA_DIR || '.data', 'pglite') };
  const allowedOrigins = (env.PUBLIC_ORIGIN ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map(checkOrigin);
  const secureCookie = flag(env, 'COOKIE_SECURE') ?? allowedOrigins.some((o) => o.startsWith('https:'));
  return {
    database,
    sessions: {
      idleSeconds: int('SESSION_IDLE_MINUTES', DEFAULTS.sessionIdleMinutes) * 60,
      absoluteSeconds: int('SESSION_ABSOLUTE_HOURS', DEFAULTS.sessionAbsoluteHours) * 3600,
      maxPerUser: int('SESSIONS_PER_USER', DEFAULTS.sessionsPerUser),
    },
    secureCookie,
    allowedOrigins,
    passwords: {
      argon2: {
        // Never below OWASP's minimum, whatever the environment says.
        memoryCost: int('ARGON2_MEMORY_KIB', OWASP_ARGON2ID.memoryCost, OWASP_ARGON2ID.memoryCost),
        timeCost: int('ARGON2_TIME_COST', OWASP_ARGON2ID.timeCost, OWASP_ARGON2ID.timeCost),
        parallelism: int('ARGON2_PARALLELISM', OWASP_ARGON2ID.parallelism),
      },
      maxConcurrent: int('PASSWORD_HASH_CONCURRENCY', DEFAULTS.hashConcurrency),
    },
    signInLimits: {
      perAddress: int('SIGN_IN_FAILURES_PER_ADDRESS', DEFAULTS.signInFailuresPerAddress),
      perAccount: int('SIGN_IN_FAILURES_PER_ACCOUNT', DEFAULTS.signInFailuresPerAccount),
      windowSeconds: int('SIGN_IN_WINDOW_MINUTES', DEFAULTS.signInWindowMinutes) * 60,
    },
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    reports: readReportsConfig({ int, secret }, env),
    delayMs: int('DEMO_API_DELAY_MS', 0, 0),
  };
}

/** An operator's token: absent, or at least MIN_SECRET_LENGTH characters (a short one stops the start). */
export function readSecret(env: Env, name: string): string | null {
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return null;
  if (raw.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `${name} is too short: ${raw.length} characters, at least ${MIN_SECRET_LENGTH} are needed ` +
        '(`openssl rand -base64 32` makes one).',
    );
  }
  return raw;
}

function flag(env: Env, name: string): boolean | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name}=${JSON.stringify(raw)} is not valid: expected 1 or 0.`);
}

function checkDatabaseUrl(url: string): string {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new ConfigError('DATABASE_URL is not a URL: expected postgres://user:password@host:port/database.');
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://, not ${protocol}//.`);
  }
  return url;
}

function checkOrigin(origin: string): string {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new ConfigError(
      `PUBLIC_ORIGIN ${JSON.stringify(origin)} is not a URL such as https://example.org.`,
    );
  }
  if (parsed.origin !== origin.replace(/\/$/, '')) {
    throw new ConfigError(
      `PUBLIC_ORIGIN ${JSON.stringify(origin)} must be an origin only, such as ${parsed.origin}.`,
    );
  }
  return parsed.origin;
}

/** A configuration for tests: an in-memory database and the defaults, with `overrides` on top. */
export function testApiConfig(overrides: Partial<ApiConfig> = {}): ApiConfig {
  return { ...readApiConfig({}), database: { kind: 'pglite' }, ...overrides };
}
