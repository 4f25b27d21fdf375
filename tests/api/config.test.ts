// @vitest-environment node
// The API's configuration (api/config.ts, over api/environment.ts): every setting read from the environment, its
// defaults, its errors listed at once; the session cookie `Secure` only for an https public origin; and the
// tests' own configuration, an in-memory PGlite with everything else at its defaults. The server's own variables
// (server/environment.ts) go through the same schema: interfaces, the API address and folders are checked too.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_ENVIRONMENT, ConfigError, readApiConfig, testApiConfig } from '../../api/config';
import { readEnvironment, type TrustProxy } from '../../api/environment';
import { readServerEnvironment } from '../../server/environment';

describe('the API configuration', () => {
  it('keeps the session cookie without `Secure` for a plain http public origin', () => {
    expect(readApiConfig({ PUBLIC_ORIGIN: 'http://localhost:8080' }).secureCookie).toBe(false);
    expect(readApiConfig({ PUBLIC_ORIGIN: 'https://b.example' }).secureCookie).toBe(true);
  });

  it('gives tests an in-memory PGlite and the defaults, with their overrides on top', () => {
    const config = testApiConfig({ secureCookie: true });
    expect(config.database).toEqual({ kind: 'pglite' });
    expect(config.secureCookie).toBe(true);
    expect(config.sessions).toEqual(readApiConfig({}).sessions);
  });
});

describe('readApiConfig', () => {
  it('defaults to PGlite under DATA_DIR with the hardened settings', () => {
    const config = readApiConfig({ DATA_DIR: '/srv/data' });
    expect(config.database).toEqual({ kind: 'pglite', dir: path.join('/srv/data', 'pglite') });
    expect(readApiConfig({}).database).toEqual({ kind: 'pglite', dir: path.join('.data', 'pglite') });
    expect(config.sessions).toEqual({ idleSeconds: 30 * 60, absoluteSeconds: 12 * 3600, maxPerUser: 10 });
    expect(config.passwords.argon2).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(config.secureCookie).toBe(false);
    expect(config.publicOrigin).toBeNull();
    expect(config.demoData).toBe(true);
    expect(config.migrateOnStart).toBe(true);
  });

  it('switches to PostgreSQL with DATABASE_URL, without demo data, and to secure cookies with an https PUBLIC_ORIGIN', () => {
    const config = readApiConfig({
      DATABASE_URL: 'postgres://u@db/app',
      DATABASE_POOL_SIZE: '4',
      PUBLIC_ORIGIN: 'https://campaigns.example/',
      SIGN_IN_FAILURES_PER_ACCOUNT: '5',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db/app', poolSize: 4 });
    expect(config.demoData).toBe(false);
    expect(config.publicOrigin).toBe('https://campaigns.example');
    expect(config.secureCookie).toBe(true);
    expect(config.signInLimits.perAccount).toBe(5);
    expect(readApiConfig({ PUBLIC_ORIGIN: 'http://localhost:8080' }).secureCookie).toBe(false);
    expect(readApiConfig({ DATABASE_URL: 'postgres://u@db/app', DEMO_DATA: '1' }).demoData).toBe(true);
    expect(readApiConfig({ DEMO_DATA: '0' }).demoData).toBe(false);
    expect(readApiConfig({ MIGRATE_ON_START: '0' }).migrateOnStart).toBe(false);
  });

  it('reads every setting from the environment', () => {
    const config = readApiConfig({
      DATABASE_URL: 'postgresql://u@db/app',
      SESSION_IDLE_MINUTES: '5',
      SESSION_ABSOLUTE_HOURS: '2',
      SESSIONS_PER_USER: '3',
      PUBLIC_ORIGIN: 'http://a.example/',
      ARGON2_MEMORY_KIB: '19456',
      ARGON2_TIME_COST: '3',
      ARGON2_PARALLELISM: '2',
      PASSWORD_HASH_CONCURRENCY: '4',
      SIGN_IN_FAILURES_PER_ADDRESS: '7',
      SIGN_IN_FAILURES_PER_ACCOUNT: '6',
      SIGN_IN_WINDOW_MINUTES: '2',
      SIGN_IN_SLOWDOWN_AFTER: '4',
      SIGN_UPS_PER_ADDRESS: '9',
      SIGN_UP_WINDOW_MINUTES: '30',
      DEMO_API_DELAY_MS: '0',
      DEMO_DATA: 'yes',
      MIGRATE_ON_START: 'no',
    });
    expect(config).toEqual({
      database: { kind: 'postgres', url: 'postgresql://u@db/app', poolSize: 10 },
      demoData: true,
      migrateOnStart: false,
      sessions: { idleSeconds: 300, absoluteSeconds: 7200, maxPerUser: 3 },
      publicOrigin: 'http://a.example',
      secureCookie: false,
      passwords: { argon2: { memoryCost: 19456, timeCost: 3, parallelism: 2 }, maxConcurrent: 4 },
      signInLimits: {
        perAddress: 7,
        perAccount: 6,
        windowSeconds: 120,
        slowdown: { afterFailures: 4, baseMs: 250, maxMs: 8_000 },
      },
      signUpLimits: { perAddress: 9, windowSeconds: 1800 },
      bodyLimitBytes: 64 * 1024,
      reports: readApiConfig({}).reports,
      delayMs: 0,
    });
    expect(readApiConfig({ DEMO_API_DELAY_MS: '250' }).delayMs).toBe(250);
  });

  it('treats an empty variable as unset', () => {
    expect(
      readApiConfig({ DATABASE_URL: '', SESSION_IDLE_MINUTES: '', HSTS: '', PUBLIC_ORIGIN: '' }),
    ).toEqual(readApiConfig({}));
  });

  it('names its errors ConfigError, and lists every problem at once', () => {
    const error = (() => {
      try {
        readApiConfig({ SESSIONS_PER_USER: '0', PORT: 'not read here', SESSION_IDLE_MINUTES: 'ten' });
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error?.name).toBe('ConfigError');
    expect(error?.message.split('\n')).toEqual([
      'SESSION_IDLE_MINUTES="ten" is not valid: expected a whole number of at least 1.',
      'SESSIONS_PER_USER="0" is not valid: expected a whole number of at least 1.',
    ]);
  });

  it.each<[Record<string, string>, string]>([
    [
      { DATABASE_URL: 'mysql://u@db/app' },
      'DATABASE_URL must start with postgres:// or postgresql://, not mysql://.',
    ],
    [
      { DATABASE_URL: 'db.internal' },
      'DATABASE_URL is not a URL: expected postgres://user:password@host:port/database.',
    ],
    [
      { SESSION_IDLE_MINUTES: 'ten' },
      'SESSION_IDLE_MINUTES="ten" is not valid: expected a whole number of at least 1.',
    ],
    [
      { ARGON2_MEMORY_KIB: '4096' },
      'ARGON2_MEMORY_KIB="4096" is not valid: expected a whole number of at least 19456.',
    ],
    [
      { PUBLIC_ORIGIN: 'https://a.example/app' },
      'PUBLIC_ORIGIN "https://a.example/app" must be an origin only, such as https://a.example.',
    ],
    [
      { PUBLIC_ORIGIN: 'https://a.example,https://b.example' },
      'PUBLIC_ORIGIN "https://a.example,https://b.example" must be one origin: where the site lives.',
    ],
    [
      { PUBLIC_ORIGIN: 'ftp://a.example' },
      'PUBLIC_ORIGIN "ftp://a.example" must start with https:// (or http://).',
    ],
    [{ PUBLIC_ORIGIN: 'campaigns' }, 'PUBLIC_ORIGIN "campaigns" is not a URL such as https://example.org.'],
    [{ DEMO_DATA: 'maybe' }, 'DEMO_DATA="maybe" is not valid: expected 1 or 0.'],
    [
      { HSTS: '1' },
      'HSTS is no longer read: PUBLIC_ORIGIN=https://… turns on HSTS and the Secure cookie together.',
    ],
    [
      { COOKIE_SECURE: 'yes' },
      'COOKIE_SECURE is no longer read: PUBLIC_ORIGIN=https://… makes the cookie __Host-sid; Secure.',
    ],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY="true" would believe X-Forwarded-For from anyone'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY="yes" would believe X-Forwarded-For from anyone'],
    [
      { TRUST_PROXY: '10.0.0.1,proxy.internal' },
      'TRUST_PROXY="10.0.0.1,proxy.internal" is not valid: expected a number of proxies (1 to 16) or their addresses and CIDR ranges, comma-separated.',
    ],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY="10.0.0.0/33" is not valid'],
    [{ REPORTS_TOKEN: 'short' }, 'REPORTS_TOKEN is too short: 5 characters, at least 32 are needed'],
    ...['+30', ' 30', '30 ', '1e3', '0x1F', '3.0', '99999999999999999999'].map(
      (value) =>
        [
          { SESSION_IDLE_MINUTES: value },
          `SESSION_IDLE_MINUTES=${JSON.stringify(value)} is not valid: expected a whole number of at least 1.`,
        ] as [Record<string, string>, string],
    ),
    [
      { SESSIONS_PER_USER: '0' },
      'SESSIONS_PER_USER="0" is not valid: expected a whole number of at least 1.',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => readApiConfig(env)).toThrow(ConfigError);
    expect(() => readApiConfig(env)).toThrow(message);
  });

  it.each<[string, TrustProxy]>([
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.2', ['10.0.0.2']],
    ['10.0.0.2, 10.1.0.0/16,::1,fd00::/8', ['10.0.0.2', '10.1.0.0/16', '::1', 'fd00::/8']],
  ])('reads TRUST_PROXY=%j as %j', (raw, expected) => {
    expect(readEnvironment(API_ENVIRONMENT, { TRUST_PROXY: raw }).TRUST_PROXY).toEqual(expected);
  });
});

describe('readServerEnvironment', () => {
  // Folders to name: a build (with index.html), an empty folder, a file, and a path where nothing is yet.
  const scratch = mkdtempSync(path.join(tmpdir(), 'campaign-web-config-'));
  const build = path.join(scratch, 'build');
  const empty = path.join(scratch, 'empty');
  const file = path.join(scratch, 'a-file');
  const missing = path.join(scratch, 'not-yet');
  mkdirSync(build);
  mkdirSync(empty);
  writeFileSync(path.join(build, 'index.html'), '<!doctype html>');
  writeFileSync(file, 'not a folder');
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const hostExpected =
    'is not valid: expected an IP address (such as 0.0.0.0 or ::) or a host name (such as localhost).';
  const apiExpected =
    'is not valid: expected a path on this site (such as /api) or an http(s) URL (such as https://api.example/api).';
  const buildExpected =
    'is not valid: expected a build folder with index.html in it (`npm run build` writes one).';
  const folderExpected = 'is not valid: expected a folder (made when missing), and that is a file.';

  it.each<[Record<string, string>, string]>([
    [{ HOST: 'not a host' }, `HOST="not a host" ${hostExpected}`],
    [{ HOST: 'http://localhost' }, `HOST="http://localhost" ${hostExpected}`],
    [{ HOST: '-leading.example' }, `HOST="-leading.example" ${hostExpected}`],
    [{ HOST: 'a..b' }, `HOST="a..b" ${hostExpected}`],
    [{ HOST: `${'a'.repeat(64)}.example` }, `HOST="${'a'.repeat(64)}.example" ${hostExpected}`],
    [{ METRICS_HOST: '10.0.0.300' }, `METRICS_HOST="10.0.0.300" ${hostExpected}`],
    [{ METRICS_HOST: '0.0.0.0:9464' }, `METRICS_HOST="0.0.0.0:9464" ${hostExpected}`],
    [{ VITE_API_BASE_URL: '::' }, `VITE_API_BASE_URL="::" ${apiExpected}`],
    [{ VITE_API_BASE_URL: 'api' }, `VITE_API_BASE_URL="api" ${apiExpected}`],
    [
      { VITE_API_BASE_URL: '//elsewhere.example/api' },
      `VITE_API_BASE_URL="//elsewhere.example/api" ${apiExpected}`,
    ],
    [{ VITE_API_BASE_URL: 'ftp://a.example/api' }, `VITE_API_BASE_URL="ftp://a.example/api" ${apiExpected}`],
    [{ VITE_API_BASE_URL: ' /api' }, `VITE_API_BASE_URL=" /api" ${apiExpected}`],
    [{ DIST_DIR: file }, `DIST_DIR=${JSON.stringify(file)} ${buildExpected}`],
    [{ DIST_DIR: empty }, `DIST_DIR=${JSON.stringify(empty)} ${buildExpected}`],
    [{ DIST_DIR: missing }, `DIST_DIR=${JSON.stringify(missing)} ${buildExpected}`],
    [{ DATA_DIR: file }, `DATA_DIR=${JSON.stringify(file)} ${folderExpected}`],
    [{ IMAGE_CACHE_DIR: file }, `IMAGE_CACHE_DIR=${JSON.stringify(file)} ${folderExpected}`],
    [
      { DATA_DIR: `${scratch}/data\u0000` },
      `DATA_DIR=${JSON.stringify(`${scratch}/data\u0000`)} is not valid: expected a path without control characters.`,
    ],
  ])('refuses %j', (env, message) => {
    expect(() => readServerEnvironment(env)).toThrow(ConfigError);
    expect(() => readServerEnvironment(env)).toThrow(message);
  });

  it('takes IP addresses and host names, a path or an http(s) URL for the API, and folders', () => {
    for (const host of ['0.0.0.0', '::', '::1', '127.0.0.1', 'localhost', 'app-1.internal', 'db.example.'])
      expect(readServerEnvironment({ HOST: host, METRICS_HOST: host })).toMatchObject({
        HOST: host,
        METRICS_HOST: host,
      });
    for (const url of ['/api', '/v2/api/', 'https://api.example/api', 'http://localhost:3001'])
      expect(readServerEnvironment({ VITE_API_BASE_URL: url }).VITE_API_BASE_URL).toBe(url);
    expect(
      readServerEnvironment({ DIST_DIR: build, DATA_DIR: missing, IMAGE_CACHE_DIR: empty }),
    ).toMatchObject({ DIST_DIR: build, DATA_DIR: missing, IMAGE_CACHE_DIR: empty });
    expect(readApiConfig({ DATA_DIR: empty }).database).toEqual({
      kind: 'pglite',
      dir: path.join(empty, 'pglite'),
    });
  });
});
