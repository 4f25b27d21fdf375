// @vitest-environment node
// The database layer: migrations and demo data, reopening, the embedded folder's lease, clear start-up
// errors, and the configuration read from the environment.
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { API_ENVIRONMENT, ConfigError, readApiConfig } from '../../../api/config';
import { DatabaseOpenError, type OpenDatabase, openDatabase, redact } from '../../../api/database/open';
import { readEnvironment, type TrustProxy } from '../../../api/environment';
import { backends, freshPostgresDatabase, POSTGRES_URL, WITH_DEMO_DATA } from '../../support/apiHarness';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'campaign-web-db-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function open(config: Parameters<typeof openDatabase>[0]): Promise<OpenDatabase> {
  const database = await openDatabase(config, WITH_DEMO_DATA);
  cleanups.push(() => database.close());
  return database;
}

const EXPECTED_COLUMNS = {
  campaigns: [
    'description',
    'ends_on',
    'featured',
    'goal',
    'id',
    'image',
    'owner_id',
    'raised',
    'starts_on',
    'status',
    'summary',
    'title',
  ],
  reports: [
    'body',
    'build_id',
    'error_message',
    'error_name',
    'error_status',
    'id',
    'kind',
    'path',
    'received_at',
    'route_name',
  ],
  rate_limits: ['expire', 'key', 'points'],
  sessions: ['created_at', 'expires_at', 'id_hash', 'last_seen_at', 'user_id'],
  users: ['created_at', 'display_name', 'email', 'id', 'password_hash'],
};

describe.each(backends())('migrations on %s', { timeout: 60_000 }, (kind) => {
  const openFresh = async () => {
    if (kind === 'pglite') return open({ kind: 'pglite' });
    const { url, drop } = await freshPostgresDatabase();
    cleanups.push(drop);
    return open({ kind: 'postgres', url, poolSize: 2 });
  };

  it('creates the typed schema and records each migration once', async () => {
    const { db } = await openFresh();
    const tables = await db.introspection.getTables();
    const columns = Object.fromEntries(
      tables.map((table) => [table.name, table.columns.map((column) => column.name).sort()]),
    );
    expect(columns).toEqual(EXPECTED_COLUMNS);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(applied.rows.map((row) => row.name)).toEqual([
      '0001_initial',
      '0002_seed',
      '0003_reports',
      '0004_rate_limits',
      '0005_argon2id_seed_hashes',
    ]);
  });

  it('writes the demo accounts and campaigns when asked', async () => {
    const { db } = await openFresh();
    const users = await db.selectFrom('users').select(['id', 'email']).orderBy('id').execute();
    expect(users).toEqual([
      { id: 'u1', email: 'demo@example.com' },
      { id: 'u2', email: 'sam@example.com' },
    ]);
    const campaigns = await db.selectFrom('campaigns').select('id').orderBy('id').execute();
    expect(campaigns.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('enforces unique emails regardless of case, and valid statuses and amounts', async () => {
    const { db } = await openFresh();
    await expect(
      db
        .insertInto('users')
        .values({ id: 'u9', email: 'DEMO@example.com', displayName: 'X', passwordHash: 'x' })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
    await expect(
      db
        .updateTable('campaigns')
        .set({ status: 'deleted' as 'draft' })
        .where('id', '=', 1)
        .execute(),
    ).rejects.toThrow(/check/i);
    await expect(
      db.updateTable('campaigns').set({ raised: -1 }).where('id', '=', 1).execute(),
    ).rejects.toThrow(/check/i);
  });
});

describe('the embedded database folder', { timeout: 60_000 }, () => {
  it('keeps data across a reopen and seeds only once', async () => {
    const dir = path.join(await tempDir(), 'pglite');
    const first = await openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    await first.db.updateTable('users').set({ displayName: 'Kept' }).where('id', '=', 'u1').execute();
    await first.db.deleteFrom('campaigns').where('id', '=', 6).execute();
    await first.close();

    const second = await open({ kind: 'pglite', dir });
    const user = await second.db
      .selectFrom('users')
      .select('displayName')
      .where('id', '=', 'u1')
      .executeTakeFirst();
    expect(user?.displayName).toBe('Kept');
    expect(await second.db.selectFrom('campaigns').select('id').where('id', '=', 6).execute()).toEqual([]);
  });

  it('refuses a second opener while the first has it', async () => {
    const dir = path.join(await tempDir(), 'pglite');
    await open({ kind: 'pglite', dir });
    const second = openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    await expect(second).rejects.toBeInstanceOf(DatabaseOpenError);
    await expect(second).rejects.toThrow(`The embedded database in ${dir} is in use by another server`);
  });

  it('takes over the stale lease of a server that no longer runs (a restart after a crash)', async () => {
    const dir = path.join(await tempDir(), 'pglite');
    await mkdir(`${dir}.lock`);
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(`${dir}.lock`, aMinuteAgo, aMinuteAgo);
    const database = await open({ kind: 'pglite', dir });
    expect((await database.db.selectFrom('users').select('id').execute()).length).toBe(2);
  });

  it('is a clear start-up error when the files are damaged, and nothing is reset', async () => {
    const dir = path.join(await tempDir(), 'pglite');
    const first = await openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    await first.close();
    await writeFile(path.join(dir, 'global', 'pg_control'), 'not a control file');
    const before = (await readdir(dir)).sort();

    const failed = openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    await expect(failed).rejects.toBeInstanceOf(DatabaseOpenError);
    await expect(failed).rejects.toThrow(`Could not open the embedded database in ${dir}`);
    await expect(failed).rejects.toThrow(/move the folder aside/);
    // Left as found for someone to inspect: no re-initialisation, no seed data written over it.
    expect(await readdir(dir)).toEqual(expect.arrayContaining(before));
    expect(await readFile(path.join(dir, 'global', 'pg_control'), 'utf8')).toBe('not a control file');
    // The lock was given back, so fixing the folder is all it takes.
    expect((await readdir(path.dirname(dir))).filter((name) => name.endsWith('.lock'))).toEqual([]);
  });

  it('is a clear start-up error when the folder cannot be made', async () => {
    const file = path.join(await tempDir(), 'a-file');
    await writeFile(file, 'not a folder');
    await expect(
      openDatabase({ kind: 'pglite', dir: path.join(file, 'pglite') }, WITH_DEMO_DATA),
    ).rejects.toThrow(/^Could not create the database folder .*a-file\/pglite/);
  });
});

describe('a PostgreSQL server that cannot be reached', () => {
  it('is a clear start-up error that never shows the password', async () => {
    const failed = openDatabase(
      {
        kind: 'postgres',
        url: 'postgres://app:s3cret@127.0.0.1:1/campaigns',
        poolSize: 1,
      },
      WITH_DEMO_DATA,
    );
    await expect(failed).rejects.toBeInstanceOf(DatabaseOpenError);
    const error = (await failed.catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /^Could not connect to PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/campaigns: /,
    );
    expect(error.message).not.toContain('s3cret');
  });

  it.skipIf(!POSTGRES_URL)('names a database that does not exist', async () => {
    const url = new URL(POSTGRES_URL ?? 'postgres://x');
    url.pathname = '/no_such_database';
    await expect(
      openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 }, WITH_DEMO_DATA),
    ).rejects.toThrow(/no_such_database.*does not exist/);
  });

  it('redacts passwords in any URL it prints', () => {
    expect(redact('postgresql://u:p%40ss@db.internal:5432/app?sslmode=require')).toBe(
      'postgresql://u:***@db.internal:5432/app?sslmode=require',
    );
    expect(redact('not a url')).toBe('(an unparseable DATABASE_URL)');
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
