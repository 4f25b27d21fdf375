// Test support for the demo API: databases to run it on (PGlite in memory always, PostgreSQL when
// TEST_DATABASE_URL points at a server), a small client over Fastify's inject, and `useApi`, the arrange block
// every API test file starts from.

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import getPort from 'get-port';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createApiApp } from '../../api/app';
import { type ApiConfig, testApiConfig } from '../../api/config';
import { writeDemoData } from '../../api/database/demoData';
import { type DatabaseConfig, type OpenDatabase, openDatabase } from '../../api/database/open';
import type { ApiLog } from '../../api/logSafe';

export const POSTGRES_URL = process.env.TEST_DATABASE_URL || undefined;

let warned = false;
/** The backends every API test runs on. Without PostgreSQL, says so once, loudly. */
export function backends(): DatabaseConfig['kind'][] {
  if (POSTGRES_URL) return ['pglite', 'postgres'];
  if (!warned) {
    warned = true;
    console.warn(
      '\n[api tests] TEST_DATABASE_URL is not set: the PostgreSQL runs of the API tests are SKIPPED; ' +
        'only PGlite was tested. `scripts/ci/with-postgres.sh npx vitest run` starts a throw-away server.\n',
    );
  }
  return ['pglite'];
}

/** A new, empty database on the test PostgreSQL server; dropped by the returned function. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `campaign_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** The project (the test run's working directory, as Vitest and Stryker's sandboxes run it). */
const ROOT = process.cwd();
/** Where migrated dumps are kept between runs, one per set of migrations and PGlite version. */
const DUMPS = path.join(tmpdir(), 'campaign-web-test-databases');

/** Names the database the migrations and the demo data build: their source and PGlite's version. */
async function migrationsKey(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await readFile(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  const folder = path.join(ROOT, 'api/database/migrations');
  for (const name of (await readdir(folder)).sort()) {
    hash.update(name);
    hash.update(await readFile(path.join(folder, name)));
  }
  for (const file of ['api/database/demoData.ts', 'api/fixtures/seed.json'])
    hash.update(await readFile(path.join(ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

/** What the API tests run on: the schema and the demo data, as the embedded default gives them. */
export const WITH_DEMO_DATA = { migrate: true, demoData: true } as const;
/** A dump already has both: the demo data is on (a database with accounts is not written again). */
const AS_DUMPED = { migrate: true, demoData: true } as const;

let dump: Promise<Blob> | undefined;

/**
 * A migrated embedded database with the demo data, as PGlite's dump of its data folder: made once per machine and set of
 * migrations (a file in the temp folder), read once per test file. Creating an embedded database runs initdb
 * in WebAssembly, 5 to 12 s on a busy 2-core machine; loading a dump takes a fraction of that. The migrations
 * themselves are tested where a test opens a database from nothing (tests/api/database/).
 */
export function migratedDump(): Promise<Blob> {
  dump ??= (async () => {
    const file = path.join(DUMPS, `${await migrationsKey()}.tar.gz`);
    const saved = await readFile(file).catch(() => null);
    if (saved) return new Blob([saved]);
    const scratch = await mkdtemp(path.join(tmpdir(), 'campaign-web-migrated-'));
    try {
      const migrated = await openDatabase(
        { kind: 'pglite', dir: path.join(scratch, 'pglite') },
        WITH_DEMO_DATA,
      );
      await migrated.close();
      const client = await PGlite.create({ dataDir: path.join(scratch, 'pglite') });
      const blob = await client.dumpDataDir('gzip');
      await client.close();
      // Written whole under another name, then renamed: a reader never sees half a file.
      await mkdir(DUMPS, { recursive: true });
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
      await rename(partial, file);
      return blob;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  })();
  return dump;
}

async function openEmbedded(): Promise<OpenDatabase> {
  return openDatabase({ kind: 'pglite', from: await migratedDump() }, AS_DUMPED);
}

/** Opens a migrated database of the given kind; `close` also drops a PostgreSQL one. */
export async function openTestDatabase(kind: DatabaseConfig['kind']): Promise<OpenDatabase> {
  if (kind === 'pglite') return openEmbedded();
  const { url, drop } = await freshPostgresDatabase();
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 5 }, WITH_DEMO_DATA);
  return {
    ...database,
    db: database.db,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/**
 * Opens a test database of `kind` before the enclosing block's tests and closes it after them; returns a getter
 * (the database exists only once the block's `beforeAll` has run).
 */
export function useTestDatabase(kind: DatabaseConfig['kind']): () => OpenDatabase {
  let database: OpenDatabase | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });
  return () => {
    if (!database) throw new Error('the test database is not open yet');
    return database;
  };
}

/** Back to the demo data, as after a fresh start (much faster than a new database per test). */
export async function resetDatabase(database: OpenDatabase): Promise<void> {
  await sql`truncate reports, sessions, rate_limits, request_limits, campaigns, users cascade`.execute(
    database.db,
  );
  if (!(await writeDemoData(database.db))) throw new Error('the demo data was not written after truncating');
}

/** The tables a test may pin a row of (`pinRow`). */
type PinnableTable = 'users' | 'campaigns' | 'sessions' | 'rate_limits' | 'request_limits' | 'reports';
const PINNABLE: readonly PinnableTable[] = [
  'users',
  'campaigns',
  'sessions',
  'rate_limits',
  'request_limits',
  'reports',
];

/**
 * Makes every delete of the row of `table` whose `column` is `key` fail, as a row of another table that refers to
 * it would: `pinned_<table>` holds one such reference (an unlogged table if `table` is one, as PostgreSQL requires
 * of a table that refers to an unlogged one). `unpinRows` drops the pins; a test file calls it after each test.
 */
export async function pinRow(
  db: OpenDatabase['db'],
  table: PinnableTable,
  column: string,
  key: string | number,
): Promise<void> {
  const { rows } = await sql<{ unlogged: boolean }>`
    select relpersistence = 'u' as unlogged from pg_class where relname = ${table} and relkind = 'r'`.execute(
    db,
  );
  if (rows.length !== 1) throw new Error(`pinRow: no table ${table}`);
  const pins = sql.id(`pinned_${table}`);
  await sql`create ${rows[0]?.unlogged ? sql`unlogged` : sql``} table ${pins} (
    key ${sql.raw(typeof key === 'number' ? 'integer' : 'text')} references ${sql.id(table)} (${sql.id(column)}))`.execute(
    db,
  );
  await sql`insert into ${pins} (key) values (${key})`.execute(db);
}

/** Drops every pin `pinRow` made, so that the rows can be deleted again. */
export async function unpinRows(db: OpenDatabase['db']): Promise<void> {
  await sql`drop table if exists ${sql.join(PINNABLE.map((table) => sql.id(`pinned_${table}`)))}`.execute(db);
}

/** How many reports the table holds. */
export async function storedReports(database: OpenDatabase): Promise<number> {
  const row = await database.db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface ApiClient {
  app: FastifyInstance;
  /** Every route the app registered, in order (HEAD routes and the API's 404 and 405 stand-ins included). */
  routes: readonly RouteOptions[];
  request(
    options: Omit<InjectOptions, 'headers'> & {
      cookie?: string;
      headers?: Record<string, string | undefined>;
    },
  ): Promise<LightMyRequestResponse>;
  /** Signs in and returns the `sid=...` pair to send back as a cookie. */
  signIn(email?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export const ORIGIN = 'http://localhost';

export interface ApiClientOptions {
  config?: Partial<ApiConfig>;
  now?: () => number;
  log?: ApiLog;
  sleep?: (ms: number) => Promise<void>;
  loginTemplate?: () => Promise<string | undefined>;
}

/** The API on `database`, with a browser's same-origin headers on every state-changing request. */
export async function apiClient(database: OpenDatabase, options: ApiClientOptions = {}): Promise<ApiClient> {
  const routes: RouteOptions[] = [];
  const { app } = await createApiApp({
    onRoute: (route) => routes.push(route),
    config: testApiConfig(options.config),
    database,
    ...(options.loginTemplate ? { loginTemplate: options.loginTemplate } : {}),
    ...(options.now ? { now: options.now } : {}),
    log: options.log ?? { error: () => {}, warn: () => {}, security: () => {} },
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
  // A header given as undefined is left out, to send less than a browser would.
  const request: ApiClient['request'] = ({ cookie, headers, ...rest }) => {
    const merged = {
      ...(rest.method && rest.method !== 'GET' ? { origin: ORIGIN, 'sec-fetch-site': 'same-origin' } : {}),
      ...(cookie ? { cookie } : {}),
      ...headers,
    };
    const sent = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
    return app.inject({ ...rest, headers: sent as Record<string, string> });
  };
  return {
    app,
    routes,
    request,
    async signIn(email = 'demo@example.com', password = 'demo-password') {
      const res = await request({ method: 'POST', url: '/api/session', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
      const pair = String(res.headers['set-cookie']).split(';')[0];
      if (!pair) throw new Error('no session cookie');
      return pair;
    },
    close: () => app.close(),
  };
}

/**
 * The arrange block of an API test file, for a `describe` block: a test database of `kind` open for the block
 * and back at the demo data before each test; `open()` for the API on it (with `defaults` under each call's
 * options), every client closed after its test. With `startAt`, the API's clock is `clock.now`, set back to
 * `startAt` before each test, for the test to move; without, the API reads the real time.
 */
export function useApi(
  kind: DatabaseConfig['kind'],
  { startAt, ...defaults }: ApiClientOptions & { startAt?: number } = {},
) {
  const database = useTestDatabase(kind);
  const clients: ApiClient[] = [];
  const clock = { now: startAt ?? 0 };
  beforeEach(async () => {
    if (startAt !== undefined) clock.now = startAt;
    await resetDatabase(database());
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  const open = async (options: ApiClientOptions = {}): Promise<ApiClient> => {
    const client = await apiClient(database(), {
      ...(startAt !== undefined ? { now: () => clock.now } : {}),
      ...defaults,
      ...options,
      config: { ...defaults.config, ...options.config },
    });
    clients.push(client);
    return client;
  };
  return { database, clock, open };
}

export function ids(res: LightMyRequestResponse): number[] {
  return (res.json() as { campaigns: { id: number }[] }).campaigns.map((c) => c.id);
}

/** A loopback port nobody holds right now. */
export function freePort(): Promise<number> {
  return getPort();
}
