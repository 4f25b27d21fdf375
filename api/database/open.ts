import fs from 'node:fs';
import { lstat, mkdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { publishedAccounts, type RemovedDemoData, removeDemoData, writeDemoData } from './demoData.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

/** Where the data lives: embedded PGlite (a folder, or memory for tests) or a PostgreSQL server. */
export type DatabaseConfig =
  /** Embedded PGlite in a folder, created if missing. */
  | { kind: 'pglite'; dir: string; from?: undefined }
  /**
   * Embedded PGlite in memory: empty, or started from a data folder as PGlite's `dumpDataDir()` wrote it. The
   * tests start from a migrated dump, which skips initdb (seconds of WebAssembly).
   */
  | { kind: 'pglite'; dir?: undefined; from?: Blob }
  | { kind: 'postgres'; url: string /** Connections in the pool. */; poolSize: number };

export interface OpenDatabase {
  readonly db: Kysely<Database>;
  readonly kind: DatabaseConfig['kind'];
  /** Where it is, safe to log (never a password). */
  readonly where: string;
  /**
   * Where to LISTEN for notifications (server/render/listener.ts): PGlite's own client (one process), or
   * PostgreSQL's URL, for a dedicated connection outside the pool.
   */
  readonly notifications?: NotificationSource;
  /** The PostgreSQL pool's clients, for the server's metrics; PGlite has one embedded connection and no pool. */
  readonly pool?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export type NotificationSource =
  | { readonly kind: 'pglite'; readonly client: PGlite }
  | { readonly kind: 'postgres'; readonly url: string };

/** What opening does besides opening: the settings of ApiConfig that concern the database. */
export interface OpenOptions {
  /**
   * Run pending migrations (MIGRATE_ON_START, and `npm run db:migrate`). False: a database with any pending
   * migration is refused with a message naming `npm run db:migrate`, and nothing is written.
   */
  migrate: boolean;
  /**
   * The demo accounts and campaigns (DEMO_DATA, ./demoData.ts). True: write them into a database without
   * accounts. False: refuse a database where an account still takes a password the README publishes (one that
   * ran the old 0002_seed, or once had DEMO_DATA on), saying how to remove them. 'unchecked': neither, for tools
   * that only read (`npm run reports`).
   */
  demoData: boolean | 'unchecked';
  /**
   * The embedded folder's lease was lost while open: removed by hand, or taken over by a server that found it
   * stale. Default: say so and exit at once, as PostgreSQL shuts down when its postmaster.pid is not its own.
   */
  onLeaseLost?: (error: DatabaseOpenError) => void;
  /** The lease's timing; tests shorten it. */
  lease?: LeaseTiming;
}

/** How the embedded folder's lease is kept (see leaseFolder). */
export interface LeaseTiming {
  /** A lease not renewed for this long is stale: its server is taken to have crashed, and a start takes it over. */
  staleMs: number;
  /** How often the holder renews it. */
  renewMs: number;
}

/**
 * Renewed every 5 s, stale after 20 s. PGlite runs on the event loop, so the renewal waits for the longest
 * thing it does: creating a folder (initdb in WebAssembly) held the loop for up to 4 s at a time on this
 * 2-core machine under a load of 15. Twenty seconds leaves room for that, and is how long a restart after a
 * crash waits.
 */
export const LEASE: LeaseTiming = { staleMs: 20_000, renewMs: 5_000 };

/** The database could not be opened or brought up to date: the server must not start. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

const DATE_OID = 1082;
// `date` columns are calendar days, not instants: keep them as `YYYY-MM-DD` text instead of a Date at
// local midnight, which would shift by a day in some time zones.
const keepText = (value: string) => value;

/**
 * Opens the database (taking the embedded folder's lease), runs every pending migration or refuses when there
 * are some and `migrate` is off, then writes the demo data if asked, before resolving. Any failure is a
 * DatabaseOpenError saying what and where; nothing is ever reset or recreated to get past one.
 */
export async function openDatabase(config: DatabaseConfig, options: OpenOptions): Promise<OpenDatabase> {
  const opened = await openConnection(config, options);
  try {
    if (options.migrate) await migrateToLatest(opened.db);
    else await refusePending(opened.db, opened.where);
    if (options.demoData === true) await writeDemoData(opened.db);
    else if (options.demoData === false) await refusePublishedAccounts(opened.db, opened.where);
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw error;
  }
  return opened;
}

function openConnection(config: DatabaseConfig, options: OpenOptions): Promise<OpenDatabase> {
  return config.kind === 'pglite' ? openPglite(config.dir, config.from, options) : openPostgres(config);
}

/**
 * PGlite's defaults start PostgreSQL with `-F` (fsync off), and the file system it mounts in Node (Emscripten's
 * NODEFS) drops fsync and fdatasync even when PostgreSQL asks: a committed write sat in the page cache, kept
 * through a crash of the process but not through a power cut. So fsync is on, the WAL is flushed with fsync()
 * (fdatasync() is a no-op in Emscripten, and NODEFS passes no O_DSYNC), and NODEFS's fsync reaches the disk.
 */
export const PGLITE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'wal_sync_method=fsync',
];

/** Emscripten's NODEFS, with the fsync it lacks: each call syncs the real file behind the stream. */
class SyncedNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const result = await super.init(...args);
    const preRun = result.emscriptenOpts.preRun ?? [];
    result.emscriptenOpts.preRun = [
      ...preRun,
      (mod) => {
        const nodefs = mod.NODEFS as unknown as EmscriptenNodeFs;
        nodefs.stream_ops.fsync = (stream) => {
          // An error becomes the errno PostgreSQL sees (it then stops: a failed fsync may have lost data).
          nodefs.tryFSOperation(() => fs.fsyncSync(stream.nfd));
          return 0;
        };
      },
    ];
    return result;
  }
}

/** The parts of Emscripten's NODEFS used above (its type in PGlite is the generic file system's). */
interface EmscriptenNodeFs {
  stream_ops: { fsync?: (stream: { nfd: number }) => number };
  tryFSOperation<T>(operation: () => T): T;
}

async function openPglite(
  dir: string | undefined,
  from: Blob | undefined,
  options: OpenOptions,
): Promise<OpenDatabase> {
  const where = dir === undefined ? 'memory' : path.resolve(dir);
  const release =
    dir === undefined
      ? async () => {}
      : await leaseFolder(where, options.lease ?? LEASE, options.onLeaseLost ?? stopAtOnce);
  let client: PGlite;
  try {
    client = await PGlite.create({
      ...(dir === undefined ? {} : { fs: new SyncedNodeFS(where) }),
      loadDataDir: from,
      startParams: [...PGLITE_START_PARAMS],
      parsers: { [pgliteTypes.DATE]: keepText },
    });
  } catch (error) {
    await release();
    throw new DatabaseOpenError(
      `Could not open the embedded database in ${where}: ${describeError(error)}. ` +
        'Its files may be damaged or from another PGlite version. Nothing was changed: move the folder ' +
        'aside to start again from the seed data, or set DATA_DIR to another folder.',
      { cause: error },
    );
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client), plugins: [new CamelCasePlugin()] });
  return {
    db,
    kind: 'pglite',
    where: `PGlite in ${where}`,
    notifications: { kind: 'pglite', client },
    close: async () => {
      await db.destroy();
      await release();
    },
  };
}

async function openPostgres(config: { url: string; poolSize: number }): Promise<OpenDatabase> {
  const where = `PostgreSQL at ${redact(config.url)}`;
  // Stryker disable next-line ObjectLiteral: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolSize,
    // Stryker disable next-line ObjectLiteral: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === DATE_OID ? keepText : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener that would
  // crash the process. The next query gets a fresh connection.
  // Stryker disable next-line StringLiteral: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
  // Stryker disable next-line ArrowFunction: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
  pool.on('error', (error) =>
    // Stryker disable next-line StringLiteral: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
    console.warn(`[demo-api] ${where}: idle connection failed: ${describeError(error)}`),
  );
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseOpenError(`Could not connect to ${where}: ${describeError(error)}.`, { cause: error });
  }
  // Stryker disable next-line ObjectLiteral: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
  // Stryker disable next-line ObjectLiteral: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
  return {
    db,
    // Stryker disable next-line StringLiteral: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
    kind: 'postgres',
    where,
    notifications: { kind: 'postgres', url: config.url },
    // Stryker disable next-line ArrowFunction: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
    // Stryker disable next-line ObjectLiteral: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    // Stryker disable next-line ArrowFunction: PostgreSQL only: the mutation run has no server (CI runs it after `scripts/ci/with-postgres.sh npm test` has stopped its cluster), so this part of openPostgres is reached only by the unreachable-server test, which fails before it matters. It is tested in the unit run against a real server: tests/api/database/ (migrations on PostgreSQL, a missing database) and every API test file on the `postgres` backend (dates as text, the pool, closing).
    close: () => db.destroy(),
  };
}

const migratorOf = (db: Kysely<Database>) =>
  new Migrator({ db: db.withoutPlugins(), provider: { getMigrations: async () => migrations } });

/**
 * What `migrateDatabase` did: the migrations it ran, in order (none: the database was up to date), and with
 * `removeDemoData` what it removed.
 */
export interface MigrationRun {
  where: string;
  ran: string[];
  removed?: RemovedDemoData;
}

/**
 * `npm run db:migrate`: opens the database, runs its pending migrations and closes it, nothing else (no demo
 * data, no server); with `removeDemoData` (`--remove-demo-data`), then removes the demo accounts that still take
 * a published password (./demoData.ts). The embedded folder's lease is taken as a server takes it, so it never
 * migrates a folder a server is using.
 */
export async function migrateDatabase(
  config: DatabaseConfig,
  { removeDemoData: remove = false }: { removeDemoData?: boolean } = {},
): Promise<MigrationRun> {
  const opened = await openConnection(config, { migrate: true, demoData: 'unchecked' });
  try {
    const ran = await migrateToLatest(opened.db);
    return { where: opened.where, ran, ...(remove ? { removed: await removeDemoData(opened.db) } : {}) };
  } finally {
    await opened.close();
  }
}

async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  // Kysely's migrator holds a row lock while it runs, so processes starting together take turns.
  const { error, results } = await migratorOf(db).migrateToLatest();
  if (error) {
    // Stryker disable next-line OptionalChaining: Unreachable: Kysely's migrator returns `results` either undefined (it failed before running any migration, as with a migration missing from this build) or with the failed migration marked `Error`; a list without an `Error` entry beside an error does not occur, so the second `?.` never short-circuits.
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new DatabaseOpenError(
      `Could not bring the database up to date${failed ? ` (migration ${failed} failed)` : ''}: ${describeError(error)}.`,
      { cause: error },
    );
  }
  return (results ?? []).map((result) => result.migrationName);
}

/** With the demo data off: refuses a database anyone could sign in to with the README's demo passwords. */
async function refusePublishedAccounts(db: Kysely<Database>, where: string): Promise<void> {
  const accounts = await publishedAccounts(db);
  if (accounts.length === 0) return;
  throw new DatabaseOpenError(
    `The database (${where}) still holds demo accounts whose passwords the README publishes ` +
      `(${accounts.map((account) => account.email).join(', ')}), and DEMO_DATA is off: anyone could sign in as ` +
      'them. Remove them and their campaigns with `npm run db:migrate -- --remove-demo-data` ' +
      '(`node server/index.mjs --migrate --remove-demo-data` beside the artifact) with the same environment, or ' +
      'set DEMO_DATA=1 if this is a demo.',
  );
}

// biome-ignore format: keep the sentence on one line
const PENDING = 'MIGRATE_ON_START=0 says migrations are a separate step: run `npm run db:migrate` with the same environment, then start again.';

/** With `migrate` off: refuses a database whose schema is behind this build's (an empty one included). */
async function refusePending(db: Kysely<Database>, where: string): Promise<void> {
  const pending = (await migratorOf(db).getMigrations())
    .filter((migration) => migration.executedAt === undefined)
    .map((migration) => migration.name);
  if (pending.length === 0) return;
  throw new DatabaseOpenError(
    `The database (${where}) is not up to date: ${pending.length} migration${pending.length === 1 ? '' : 's'} ` +
      `to run (${pending.join(', ')}). ${PENDING}`,
  );
}

// PGlite is one process's database: two processes writing one folder would corrupt it without a word. A lock
// that names a pid cannot tell who holds it: in another PID namespace (two containers on one volume) the pid in
// it is another process, or this one. So the folder is held by a lease, proper-lockfile's: a directory beside it
// (`pglite.lock`), made atomically with mkdir, whose mtime the holder renews on a timer. A lease renewed while
// a starting server watches belongs to a running server; one not renewed for LEASE.staleMs belongs to one that
// crashed, and is taken over. It needs a shared file system and clock, nothing about processes.
const leasedHere = new Set<string>();

async function leaseFolder(
  where: string,
  timing: LeaseTiming,
  onLost: (error: DatabaseOpenError) => void,
): Promise<() => Promise<void>> {
  try {
    await mkdir(where, { recursive: true });
  } catch (error) {
    throw new DatabaseOpenError(`Could not create the database folder ${where}: ${describeError(error)}.`, {
      cause: error,
    });
  }
  // One lease per folder, however it is named (a symlink, a relative path).
  const folder = await realpath(where);
  const lease = `${folder}.lock`;
  await refuseOldLock(where, lease);
  const stale = Math.round(timing.staleMs / 1000);
  const inUse = () =>
    new DatabaseOpenError(
      `The embedded database in ${where} is in use by another server: its lease ${lease} is being renewed. ` +
        'PGlite serves one process: stop the other server, give this one another DATA_DIR, or set DATABASE_URL ' +
        `to share a PostgreSQL server. (A server that crashed leaves its lease behind; it goes stale ${stale} s ` +
        'after its last renewal, and a start waits that long for it, then takes it over.)',
    );
  if (leasedHere.has(folder)) throw inUse();
  // A lease whose time never moves and never gets old (set in the future) must not keep a start waiting forever.
  const giveUpAt = Date.now() + timing.staleMs + timing.renewMs;
  let seen: number | undefined;
  for (;;) {
    try {
      const release = await lockfile.lock(folder, {
        lockfilePath: lease,
        realpath: false,
        stale: timing.staleMs,
        update: timing.renewMs,
        onCompromised: (error) => {
          leasedHere.delete(folder);
          onLost(
            new DatabaseOpenError(
              `Lost the lease ${lease} of the embedded database in ${where} while it was open ` +
                `(${describeError(error)}): another server may be writing the folder now. Stopping at once, ` +
                'so that two servers never write one folder.',
              { cause: error },
            ),
          );
        },
      });
      leasedHere.add(folder);
      return async () => {
        // A lease lost meanwhile is no longer this process's to remove.
        if (leasedHere.delete(folder)) await release();
      };
    } catch (error) {
      // Stryker disable next-line ConditionalExpression: fs and process.kill reject only with Node system errors, which are Error instances with a `code`, so the guard before `error.code` is always true; it is there for the type checker.
      // Stryker disable next-line LogicalOperator: fs and process.kill reject only with Node system errors, which are Error instances with a `code`, so the guard before `error.code` is always true; it is there for the type checker.
      if (!(error instanceof Error && 'code' in error && error.code === 'ELOCKED')) {
        throw new DatabaseOpenError(`Could not lock the database folder ${where}: ${describeError(error)}.`, {
          cause: error,
        });
      }
    }
    const renewed = await stat(lease).then(
      (info) => info.mtimeMs,
      () => undefined,
    );
    if (renewed !== undefined && seen !== undefined && renewed !== seen) throw inUse();
    if (Date.now() > giveUpAt) throw inUse();
    if (seen === undefined && renewed !== undefined) {
      seen = renewed;
      console.warn(
        `[database] ${lease} is held: waiting up to ${stale} s to see whether its server is running ` +
          `(a crashed server's lease goes stale ${stale} s after its last renewal, and is then taken over).`,
      );
    }
    await sleep(Math.min(1000, timing.renewMs / 2));
  }
}

/** Earlier versions locked the folder with a file naming a pid, which this version cannot judge. */
async function refuseOldLock(where: string, lease: string): Promise<void> {
  const isFile = await lstat(lease).then(
    (info) => info.isFile(),
    () => false,
  );
  if (!isFile) return;
  const pid = (await readFile(lease, 'utf8').catch(() => '')).trim();
  throw new DatabaseOpenError(
    `The embedded database in ${where} has a lock file of an older version of this server (${lease}, naming ` +
      `process ${pid || 'none'}), which may still be running. Stop it; if no server of that version uses the ` +
      `folder any more, delete ${lease} and start again.`,
  );
}

/** The default when a lease is lost: PostgreSQL's own answer to a postmaster.pid that is not its own. */
function stopAtOnce(error: DatabaseOpenError): void {
  console.error(`[database] ${error.message}`);
  process.exit(1);
}

/** An error as one clause of a sentence: its message without the closing full stop (the first of several). */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  if (error instanceof Error) return error.message.replace(/\.$/, '') || error.name;
  return String(error);
}

/** The connection string without its password. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparseable DATABASE_URL)';
  }
}
