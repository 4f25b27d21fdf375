// @vitest-environment node
// Opening the database, case by case: the embedded folder's lock against every kind of owner it can name,
// the errors a start-up prints, a database started from a dump, migrations that fail, and migrations undone.
// The lock's cases meet a folder PGlite refuses in half a second (PG_VERSION of another major): an open that
// gets as far as "Could not open the embedded database" has taken the lock, one that does not was refused.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { Migrator, NO_MIGRATIONS } from 'kysely/migration';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrations } from '../api/database/migrations/index';
import {
  type DatabaseConfig,
  DatabaseOpenError,
  describeError,
  openDatabase,
  redact,
} from '../api/database/open';
import seed from '../api/fixtures/seed.json' with { type: 'json' };
import { migratedDump, WITH_DEMO_DATA } from './support/apiHarness';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A folder for the database to live in, in a fresh temp folder; its lock file is `${dir}.lock`. */
async function databaseDir(name = 'pglite'): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), 'campaign-web-open-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  return path.join(parent, name);
}

/** A data folder PGlite refuses at once: it belongs to a PostgreSQL major version that does not exist. */
async function refusedFolder(): Promise<string> {
  const dir = await databaseDir();
  await mkdir(dir);
  await writeFile(path.join(dir, 'PG_VERSION'), '99\n');
  return dir;
}

const lockOf = (dir: string) => `${dir}.lock`;
const lockFiles = async (dir: string) =>
  (await readdir(path.dirname(dir))).filter((name) => name.endsWith('.lock'));

/** Asserts the open took the lock (and gave it back when PGlite then refused the folder). */
async function expectLockTaken(dir: string): Promise<void> {
  await expect(openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA)).rejects.toThrow(
    `Could not open the embedded database in ${dir}: `,
  );
  expect(await lockFiles(dir)).toEqual([]);
}

/** The error an open fails with (an open that succeeds instead is closed, and fails the test). */
async function openingError(config: DatabaseConfig): Promise<DatabaseOpenError> {
  const outcome = await openDatabase(config, WITH_DEMO_DATA).then(
    async (database) => database.close(),
    (thrown: unknown) => thrown,
  );
  if (outcome instanceof DatabaseOpenError) return outcome;
  throw new Error(`expected a DatabaseOpenError, got ${String(outcome)}`);
}

const inUse = (dir: string, pid: number) =>
  `The embedded database in ${dir} is in use by process ${pid}. PGlite serves one process: stop the other ` +
  'server, give this one another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server.';

/** A process that runs until the test ends. */
function runningProcess(): ChildProcess & { pid: number } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  cleanups.push(() => child.kill('SIGKILL'));
  if (child.pid === undefined) throw new Error('the child process did not start');
  return child as ChildProcess & { pid: number };
}

/** The migrated dump, changed by `change` and dumped again: a database as someone left it. */
async function dumpAfter(change: string): Promise<Blob> {
  const client = await PGlite.create({ loadDataDir: await migratedDump() });
  try {
    await client.exec(change);
    return await client.dumpDataDir('gzip');
  } finally {
    await client.close();
  }
}

describe('the embedded folder’s lock', { timeout: 60_000 }, () => {
  it('refuses a folder another running process holds, and leaves its lock alone', async () => {
    const dir = await refusedFolder();
    const other = runningProcess();
    await writeFile(lockOf(dir), `${other.pid}\n`);
    const opening = openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    await expect(opening).rejects.toBeInstanceOf(DatabaseOpenError);
    await expect(opening).rejects.toThrow(inUse(dir, other.pid));
    expect(await readFile(lockOf(dir), 'utf8')).toBe(`${other.pid}\n`);
  });

  it('refuses a folder held by a process it may not signal (another user’s: EPERM)', async () => {
    const dir = await refusedFolder();
    const kill = process.kill.bind(process);
    vi.spyOn(process, 'kill').mockImplementation((pid, signal) => {
      if (pid !== 4242) return kill(pid, signal);
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM', syscall: 'kill' });
    });
    await writeFile(lockOf(dir), '4242\n');
    await expect(openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA)).rejects.toThrow(inUse(dir, 4242));
  });

  it('takes over a lock with this process’s own pid that it does not hold (a container restarted as pid 1)', async () => {
    const dir = await refusedFolder();
    await writeFile(lockOf(dir), `${process.pid}\n`);
    await expectLockTaken(dir);
  });

  it.each([
    ['a process that has exited', 'exited'],
    ['no pid at all', ''],
    ['text that is not a pid', 'not a pid\n'],
    ['pid 0 (which would mean this process group)', '0\n'],
    ['pid -1 (which would mean every process)', '-1\n'],
  ])('takes over a lock naming %s', async (_, content) => {
    const dir = await refusedFolder();
    if (content === 'exited') {
      const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
      await new Promise((resolve) => child.once('exit', resolve));
      await writeFile(lockOf(dir), `${child.pid}\n`);
    } else {
      await writeFile(lockOf(dir), content);
    }
    await expectLockTaken(dir);
  });

  it('says why when the lock file cannot be made, without taking anything over', async () => {
    // mkdir makes the 251-character folder; its lock's name, 5 characters longer, is past the 255 a name may have.
    const dir = await databaseDir('d'.repeat(251));
    const error = await openingError({ kind: 'pglite', dir });
    expect(error.message).toBe(
      `Could not lock the database folder ${dir}: ENAMETOOLONG: name too long, open '${lockOf(dir)}'.`,
    );
    expect(error.name).toBe('DatabaseOpenError');
    expect(error.cause).toMatchObject({ code: 'ENAMETOOLONG' });
  });

  it('keeps the reason a folder cannot be made as the cause', async () => {
    const file = await databaseDir('a-file');
    await writeFile(file, 'not a folder');
    const error = await openingError({ kind: 'pglite', dir: path.join(file, 'pglite') });
    expect(error.message).toMatch(/^Could not create the database folder .*a-file\/pglite: /);
    expect(error.cause).toMatchObject({ code: 'ENOTDIR' });
  });

  it('gives the lock back on close even if someone removed it, and the folder opens again', async () => {
    const dir = await databaseDir();
    const first = await openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    expect(first).toMatchObject({ kind: 'pglite', where: `PGlite in ${dir}` });
    expect(await readFile(lockOf(dir), 'utf8')).toBe(`${process.pid}\n`);
    await rm(lockOf(dir));
    await first.close();
    const second = await openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    cleanups.push(() => second.close());
    expect(await second.db.selectFrom('users').select('id').orderBy('id').execute()).toEqual([
      { id: 'u1' },
      { id: 'u2' },
    ]);
  });
});

describe('opening an embedded database', { timeout: 60_000 }, () => {
  it('says where it is, and reads calendar days as text', async () => {
    const database = await openDatabase({ kind: 'pglite', from: await migratedDump() }, WITH_DEMO_DATA);
    cleanups.push(() => database.close());
    expect(database).toMatchObject({ kind: 'pglite', where: 'PGlite in memory' });
    expect(database.pool).toBeUndefined();
    const days = await database.db
      .selectFrom('campaigns')
      .select(['id', 'startsOn', 'endsOn'])
      .orderBy('id')
      .execute();
    expect(days).toEqual(seed.campaigns.map(({ id, startsOn, endsOn }) => ({ id, startsOn, endsOn })));
  });

  it('starts from the dump it is given', async () => {
    const from = await dumpAfter(`update users set display_name = 'From the dump' where id = 'u1'`);
    const database = await openDatabase({ kind: 'pglite', from }, WITH_DEMO_DATA);
    cleanups.push(() => database.close());
    const user = await database.db
      .selectFrom('users')
      .select('displayName')
      .where('id', '=', 'u1')
      .executeTakeFirstOrThrow();
    expect(user.displayName).toBe('From the dump');
  });

  it('names what PGlite refused, keeps its error as the cause, and says nothing was changed', async () => {
    const dir = await refusedFolder();
    const error = await openingError({ kind: 'pglite', dir });
    expect(error.message).toBe(
      `Could not open the embedded database in ${dir}: ${describeError(error.cause)}. Its files may be damaged ` +
        'or from another PGlite version. Nothing was changed: move the folder aside to start again from the ' +
        'seed data, or set DATA_DIR to another folder.',
    );
    expect(error.cause).toBeInstanceOf(Error);
    expect(await readdir(dir)).toEqual(['PG_VERSION']);
  });
});

describe('migrations that cannot run', { timeout: 60_000 }, () => {
  it('name the migration that failed, not the one before it that ran, and the open fails', async () => {
    // 0002 runs again (its rows are there already: it does nothing), then 0003 finds its table.
    const from = await dumpAfter(
      `delete from kysely_migration where name in ('0002_seed', '0003_reports', '0004_rate_limits')`,
    );
    const error = await openingError({ kind: 'pglite', from });
    expect(error.message).toBe(
      'Could not bring the database up to date (migration 0003_reports failed): relation "reports" already exists.',
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('refuse a database a newer build has migrated', async () => {
    const from = await dumpAfter(
      `insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01')`,
    );
    await expect(openDatabase({ kind: 'pglite', from }, WITH_DEMO_DATA)).rejects.toThrow(
      'Could not bring the database up to date: corrupted migrations: previously executed migration ' +
        '9999_from_the_future is missing.',
    );
  });
});

describe('migrations undone', { timeout: 60_000 }, () => {
  it('step down one at a time to nothing, and up again to the seeded schema', async () => {
    const database = await openDatabase({ kind: 'pglite', from: await migratedDump() }, WITH_DEMO_DATA);
    cleanups.push(() => database.close());
    const db = database.db.withoutPlugins();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const tables = async () => (await db.introspection.getTables()).map((table) => table.name).sort();
    const count = async (table: string) =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]?.n,
      );

    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await tables()).toEqual(['campaigns', 'reports', 'sessions', 'sign_in_limits', 'users']);

    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await tables()).toEqual(['campaigns', 'sessions', 'sign_in_limits', 'users']);
    expect([await count('users'), await count('campaigns')]).toEqual([
      seed.users.length,
      seed.campaigns.length,
    ]);

    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect([await count('users'), await count('campaigns')]).toEqual([0, 0]);

    expect((await migrator.migrateTo(NO_MIGRATIONS)).error).toBeUndefined();
    expect(await tables()).toEqual([]);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await tables()).toEqual(['campaigns', 'rate_limits', 'reports', 'sessions', 'users']);
    expect([await count('users'), await count('campaigns')]).toEqual([
      seed.users.length,
      seed.campaigns.length,
    ]);
  });
});

describe('the schema the migrations build', () => {
  // From nothing, not from the harness's dump: the dump is made once per set of migrations, so a changed
  // migration (a mutant among them) would be tested against the schema its predecessor built.
  it('has the indexes the queries rely on and each column’s default', { timeout: 120_000 }, async () => {
    const database = await openDatabase({ kind: 'pglite' }, WITH_DEMO_DATA);
    cleanups.push(() => database.close());
    const indexes = await sql<{ indexdef: string }>`
      select indexdef from pg_indexes where schemaname = 'public' and indexname not like '%_pkey'
      order by indexname`.execute(database.db);
    expect(indexes.rows.map((row) => row.indexdef)).toEqual([
      'CREATE INDEX campaigns_owner_idx ON public.campaigns USING btree (owner_id, id)',
      "CREATE INDEX campaigns_public_idx ON public.campaigns USING btree (featured DESC, id) WHERE (status <> 'draft'::text)",
      'CREATE INDEX reports_received_idx ON public.reports USING btree (received_at, id)',
      'CREATE INDEX sessions_expires_idx ON public.sessions USING btree (expires_at)',
      'CREATE INDEX sessions_last_seen_idx ON public.sessions USING btree (last_seen_at)',
      'CREATE INDEX sessions_user_idx ON public.sessions USING btree (user_id, created_at)',
      'CREATE UNIQUE INDEX users_email_lower_key ON public.users USING btree (lower(email))',
    ]);
    const defaults = await sql<{ column: string; default: string }>`
      select table_name || '.' || column_name as column, column_default as default
      from information_schema.columns
      where table_schema = 'public' and column_default is not null and table_name not like 'kysely_migration%'
      order by 1`.execute(database.db);
    expect(defaults.rows).toEqual([
      { column: 'campaigns.featured', default: 'false' },
      { column: 'rate_limits.points', default: '0' },
      { column: 'reports.received_at', default: 'now()' },
      { column: 'users.created_at', default: 'now()' },
    ]);
  });
});

describe('a PostgreSQL server that cannot be reached', () => {
  it('keeps the connection’s error as the cause', async () => {
    const error = await openingError({
      kind: 'postgres',
      url: 'postgres://app@127.0.0.1:1/campaigns',
      poolSize: 1,
    });
    expect(error.message).toBe(
      `Could not connect to PostgreSQL at postgres://app@127.0.0.1:1/campaigns: ${describeError(error.cause)}.`,
    );
    expect(error.cause).toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('describeError', () => {
  it.each<[string, unknown, string]>([
    [
      'a message without its full stop',
      new Error('connect ECONNREFUSED 127.0.0.1:1.'),
      'connect ECONNREFUSED 127.0.0.1:1',
    ],
    ['only the last full stop', new Error('a.b.'), 'a.b'],
    ['the name of an error without a message', new TypeError(''), 'TypeError'],
    [
      'the first of several errors (connecting to every address of a host)',
      new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('second')], ''),
      'connect ECONNREFUSED ::1:5432',
    ],
    ['an AggregateError of nothing by its own message', new AggregateError([], 'none.'), 'none'],
    [
      'an AggregateError of nothing, without a message, by its name',
      new AggregateError([]),
      'AggregateError',
    ],
    ['anything else as text', 42, '42'],
  ])('gives %s', (_, error, text) => {
    expect(describeError(error)).toBe(text);
  });
});

describe('redact', () => {
  it('leaves a URL without a password as it was', () => {
    expect(redact('postgres://app@db.internal:5432/campaigns')).toBe(
      'postgres://app@db.internal:5432/campaigns',
    );
  });
});
