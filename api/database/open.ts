import { mkdir, open as openFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
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
  /** The PostgreSQL pool's clients, for the server's metrics; PGlite has one embedded connection and no pool. */
  readonly pool?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** The database could not be opened or brought up to date: the server must not start. */
export class DatabaseOpenError extends Error {
  override name = 'DatabaseOpenError';
}

const DATE_OID = 1082;
// `date` columns are calendar days, not instants: keep them as `YYYY-MM-DD` text instead of a Date at
// local midnight, which would shift by a day in some time zones.
const keepText = (value: string) => value;

/**
 * Opens the database, takes the embedded folder's lock, and runs every pending migration (the seed
 * among them) before resolving. Any failure is a DatabaseOpenError saying what and where; nothing is
 * ever reset or recreated to get past one.
 */
export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  const opened =
    config.kind === 'pglite' ? await openPglite(config.dir, config.from) : await openPostgres(config);
  try {
    await migrateToLatest(opened.db);
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw error;
  }
  return opened;
}

async function openPglite(dir: string | undefined, from: Blob | undefined): Promise<OpenDatabase> {
  const where = dir === undefined ? 'memory' : path.resolve(dir);
  const release = dir === undefined ? async () => {} : await lockFolder(where);
  let client: PGlite;
  try {
    client = await PGlite.create({
      dataDir: dir === undefined ? undefined : where,
      loadDataDir: from,
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
    close: async () => {
      await db.destroy();
      await release();
    },
  };
}

async function openPostgres(config: { url: string; poolSize: number }): Promise<OpenDatabase> {
  const where = `PostgreSQL at ${redact(config.url)}`;
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolSize,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === DATE_OID ? keepText : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener that would
  // crash the process. The next query gets a fresh connection.
  pool.on('error', (error) =>
    console.warn(`[demo-api] ${where}: idle connection failed: ${describeError(error)}`),
  );
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseOpenError(`Could not connect to ${where}: ${describeError(error)}.`, { cause: error });
  }
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
  return {
    db,
    kind: 'postgres',
    where,
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  // Kysely's migrator holds a row lock while it runs, so processes starting together take turns.
  const migrator = new Migrator({
    db: db.withoutPlugins(),
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new DatabaseOpenError(
      `Could not bring the database up to date${failed ? ` (migration ${failed} failed)` : ''}: ${describeError(error)}.`,
      { cause: error },
    );
  }
}

// PGlite is one process's database: two processes writing one folder would corrupt it without a word.
// A lock file with the owner's pid turns that into a clear error; a lock left by a crashed process
// (its pid no longer running) is taken over, so a restart after kill -9 just works.
const lockedHere = new Set<string>();

async function lockFolder(dir: string): Promise<() => Promise<void>> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new DatabaseOpenError(`Could not create the database folder ${dir}: ${describeError(error)}.`, {
      cause: error,
    });
  }
  const lockFile = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await openFile(lockFile, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      lockedHere.add(dir);
      return async () => {
        lockedHere.delete(dir);
        await rm(lockFile, { force: true });
      };
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) {
        throw new DatabaseOpenError(`Could not lock the database folder ${dir}: ${describeError(error)}.`, {
          cause: error,
        });
      }
    }
    const owner = Number.parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10);
    const ownerRuns = owner === process.pid ? lockedHere.has(dir) : isRunning(owner);
    if (ownerRuns) {
      throw new DatabaseOpenError(
        `The embedded database in ${dir} is in use by process ${owner}. PGlite serves one process: ` +
          'stop the other server, give this one another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server.',
      );
    }
    await rm(lockFile, { force: true });
  }
  throw new DatabaseOpenError(`Could not lock the database folder ${dir}: another process keeps taking it.`);
}

function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
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
