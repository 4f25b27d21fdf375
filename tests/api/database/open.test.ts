// @vitest-environment node
// Opening the database, case by case: the embedded folder's lease against a live holder (in another process, in
// another PID namespace), a stale one, one lost while open, the errors a start-up prints, a database started from
// a dump, migrations that fail, and migrations undone. The lease's cases meet a folder PGlite refuses in half a
// second (PG_VERSION of another major): an open that gets as far as "Could not open the embedded database" has
// taken the lease, one that does not was refused.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { Migrator, NO_MIGRATIONS } from 'kysely/migration';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrations } from '../../../api/database/migrations/index';
import {
  type DatabaseConfig,
  DatabaseOpenError,
  describeError,
  type LeaseTiming,
  migrateDatabase,
  type OpenDatabase,
  type OpenOptions,
  openDatabase,
  redact,
} from '../../../api/database/open';
import seed from '../../../api/fixtures/seed.json' with { type: 'json' };
import { Passwords } from '../../../api/passwords';
import { migratedDump, WITH_DEMO_DATA } from '../../support/apiHarness';
import { CAN_UNSHARE, inNamespace } from '../../support/namespaces';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The lease's timing in these tests: proper-lockfile's shortest (stale after 2 s, renewed every second). */
const FAST: LeaseTiming = { staleMs: 2000, renewMs: 1000 };
/** How the lease tests open: no migrations to wait for, and a lost lease recorded instead of exiting. */
const leaseOptions = (onLeaseLost: (error: DatabaseOpenError) => void = () => {}): OpenOptions => ({
  migrate: true,
  demoData: false,
  lease: FAST,
  onLeaseLost,
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

/** What `--remove-demo-data` removes from the demo data (api/fixtures/seed.json). */
const REMOVED = { accounts: ['demo@example.com', 'sam@example.com'], campaigns: 6 };
const lockFiles = async (dir: string) =>
  (await readdir(path.dirname(dir))).filter((name) => name.endsWith('.lock'));

/**
 * Asserts the open took the lock and had given it back by the time it failed, when PGlite then refused the
 * folder: looked at synchronously as the failure arrives, as a process that exits on it would leave the disk.
 */
async function expectLockTaken(dir: string): Promise<void> {
  const failure = await openDatabase({ kind: 'pglite', dir }, leaseOptions()).then(
    () => 'opened',
    (error: unknown) => ({ error, lockLeft: existsSync(lockOf(dir)) }),
  );
  expect(failure).toEqual({ error: expect.any(DatabaseOpenError), lockLeft: false });
  expect((failure as { error: Error }).error.message).toContain(
    `Could not open the embedded database in ${dir}: `,
  );
  expect(await lockFiles(dir)).toEqual([]);
}

/** The error an open fails with (an open that succeeds instead is closed, and fails the test). */
async function openingError(config: DatabaseConfig): Promise<DatabaseOpenError> {
  const outcome = await openDatabase(config, leaseOptions()).then(
    async (database) => database.close(),
    (thrown: unknown) => thrown,
  );
  if (outcome instanceof DatabaseOpenError) return outcome;
  throw new Error(`expected a DatabaseOpenError, got ${String(outcome)}`);
}

const inUse = (dir: string, stale = FAST.staleMs / 1000) =>
  `The embedded database in ${dir} is in use by another server: its lease ${lockOf(dir)} is being renewed. ` +
  'PGlite serves one process: stop the other server, give this one another DATA_DIR, or set DATABASE_URL to ' +
  `share a PostgreSQL server. (A server that crashed leaves its lease behind; it goes stale ${stale} s after its ` +
  'last renewal, and a start waits that long for it, then takes it over.)';

/** What a server holding `dir` keeps on disk: proper-lockfile's lease, as open.ts takes it, renewed on a timer. */
const HOLD = `
const [dir, stale, update] = process.argv.slice(1);
require('proper-lockfile')
  .lock(dir, { lockfilePath: dir + '.lock', realpath: false, stale: Number(stale), update: Number(update) })
  .then(() => console.log('held by pid ' + process.pid), (error) => { console.error(error.message); process.exit(1); });
setInterval(() => {}, 1 << 30);`;

/** Another server holding `dir`'s lease, in a child process (in a PID namespace of its own if asked). */
async function leaseHolder(
  dir: string,
  ownNamespace = false,
): Promise<{ child: ChildProcess; said: string }> {
  const argv = [process.execPath, '-e', HOLD, dir, String(FAST.staleMs), String(FAST.renewMs)];
  const [command, ...args] = ownNamespace ? inNamespace(argv) : argv;
  const child = spawn(command as string, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => child.kill('SIGKILL'));
  const [said] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  return { child, said: said.toString().trim() };
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

describe('the embedded folder’s lease', { timeout: 60_000 }, () => {
  it('refuses a folder a server in another process holds, and leaves its lease alone', async () => {
    const dir = await refusedFolder();
    const { child } = await leaseHolder(dir);
    const opening = openDatabase({ kind: 'pglite', dir }, leaseOptions());
    await expect(opening).rejects.toBeInstanceOf(DatabaseOpenError);
    await expect(opening).rejects.toThrow(inUse(dir));
    expect(await lockFiles(dir)).toEqual(['pglite.lock']);
    expect(child.exitCode).toBeNull();
  });

  it(
    CAN_UNSHARE
      ? 'refuses a folder held from another PID namespace, opened from a third (two containers on one volume)'
      : 'refuses a folder held by another process, opened from another (unshare cannot make PID namespaces here)',
    async () => {
      // Both are pid 1 in their namespaces: a lock that named a pid would read "1", this process's own, and take it.
      const dir = await refusedFolder();
      const { said } = await leaseHolder(dir, true);
      if (CAN_UNSHARE) expect(said).toBe('held by pid 1');
      const open = `
        const { openDatabase } = await import(${JSON.stringify(path.resolve('api/database/open.ts'))});
        const opened = await openDatabase({ kind: 'pglite', dir: ${JSON.stringify(dir)} }, {
          migrate: true, demoData: false, lease: ${JSON.stringify(FAST)}, onLeaseLost: () => {},
        }).then(() => 'opened', (error) => error.message);
        console.log(JSON.stringify({ pid: process.pid, opened }));`;
      const [command, ...args] = inNamespace([
        process.execPath,
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        open,
      ]);
      const { stdout } = await promisify(execFile)(command as string, args);
      expect(JSON.parse(stdout)).toEqual({ pid: CAN_UNSHARE ? 1 : expect.any(Number), opened: inUse(dir) });
      expect(await lockFiles(dir)).toEqual(['pglite.lock']);
    },
  );

  it('takes over the lease of a server that was killed, once the lease goes stale', async () => {
    const dir = await refusedFolder();
    const { child } = await leaseHolder(dir);
    child.kill('SIGKILL');
    await once(child, 'exit');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expectLockTaken(dir);
    expect(warn).toHaveBeenCalledWith(
      `[database] ${lockOf(dir)} is held: waiting up to 2 s to see whether its server is running (a crashed ` +
        "server's lease goes stale 2 s after its last renewal, and is then taken over).",
    );
  });

  it('takes over a lease that went stale long ago at once', async () => {
    const dir = await refusedFolder();
    await mkdir(lockOf(dir));
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(lockOf(dir), anHourAgo, anHourAgo);
    await expectLockTaken(dir);
  });

  it('stops waiting for a lease whose time stands still in the future, and refuses', async () => {
    const dir = await refusedFolder();
    await mkdir(lockOf(dir));
    const inAnHour = new Date(Date.now() + 3_600_000);
    await utimes(lockOf(dir), inAnHour, inAnHour);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(openDatabase({ kind: 'pglite', dir }, leaseOptions())).rejects.toThrow(inUse(dir));
    expect(await lockFiles(dir)).toEqual(['pglite.lock']);
  });

  it('refuses the pid lock file of an older version, which it cannot judge, and says what to do', async () => {
    const dir = await refusedFolder();
    await writeFile(lockOf(dir), '4242\n');
    const error = await openingError({ kind: 'pglite', dir });
    expect(error.message).toBe(
      `The embedded database in ${dir} has a lock file of an older version of this server (${lockOf(dir)}, naming ` +
        `process 4242), which may still be running. Stop it; if no server of that version uses the folder any ` +
        `more, delete ${lockOf(dir)} and start again.`,
    );
    expect(await readFile(lockOf(dir), 'utf8')).toBe('4242\n');
  });

  it('says why when the lease cannot be made, without taking anything over', async () => {
    // mkdir makes the 251-character folder; its lease's name, 5 characters longer, is past the 255 a name may have.
    const dir = await databaseDir('d'.repeat(251));
    const error = await openingError({ kind: 'pglite', dir });
    expect(error.message).toBe(
      `Could not lock the database folder ${dir}: ENAMETOOLONG: name too long, mkdir '${lockOf(dir)}'.`,
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

  it('is one per folder in a process too, says at once when it is lost while open, and is given back on close', {
    timeout: 120_000,
  }, async () => {
    const dir = await databaseDir();
    const lost = vi.fn<(error: DatabaseOpenError) => void>();
    const first = await openDatabase({ kind: 'pglite', dir }, leaseOptions(lost));
    expect(first).toMatchObject({ kind: 'pglite', where: `PGlite in ${dir}` });
    await expect(openDatabase({ kind: 'pglite', dir }, leaseOptions())).rejects.toThrow(inUse(dir));

    // Removed by hand: noticed at the next renewal.
    await rm(lockOf(dir), { recursive: true });
    await vi.waitFor(() => expect(lost).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    expect(lost.mock.calls[0]?.[0].message).toMatch(
      new RegExp(
        `^Lost the lease ${lockOf(dir)} of the embedded database in ${dir} while it was open \\(ENOENT: .*\\): ` +
          'another server may be writing the folder now\\. Stopping at once, so that two servers never write one folder\\.$',
      ),
    );
    await first.close();

    // Taken over by another server, which renews it as its own (again and again: one renewal racing this
    // server's own could be overwritten by it): noticed at this server's next renewal.
    const lostAgain = vi.fn<(error: DatabaseOpenError) => void>();
    const second = await openDatabase({ kind: 'pglite', dir }, leaseOptions(lostAgain));
    cleanups.push(() => second.close());
    expect(await lockFiles(dir)).toEqual(['pglite.lock']);
    const theirs = new Date(Date.now() - 60_000);
    await vi.waitFor(
      async () => {
        await utimes(lockOf(dir), theirs, theirs);
        expect(lostAgain).toHaveBeenCalledTimes(1);
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(lostAgain.mock.calls[0]?.[0].cause).toMatchObject({ code: 'ECOMPROMISED' });
    // Not its lease any more: closing leaves it to the other server.
    await second.close();
    expect(await lockFiles(dir)).toEqual(['pglite.lock']);
  });

  it('holds the lease until PGlite has closed the folder, and has given it back when close resolves', {
    timeout: 120_000,
  }, async () => {
    const dir = await databaseDir();
    const database = await openDatabase({ kind: 'pglite', dir }, leaseOptions());
    const close = PGlite.prototype.close;
    const leaseAtClosed: boolean[] = [];
    vi.spyOn(PGlite.prototype, 'close').mockImplementation(async function (this: PGlite) {
      await close.call(this);
      leaseAtClosed.push(existsSync(lockOf(dir)));
    });
    await database.close();
    // Read at once, as close resolves: a process that exits then leaves the disk as it is.
    const leaseAfterClose = existsSync(lockOf(dir));
    expect({ leaseAtClosed, leaseAfterClose }).toEqual({ leaseAtClosed: [true], leaseAfterClose: false });
    expect(await lockFiles(dir)).toEqual([]);
  });

  it('gives the lease back before it fails, when the folder is refused once open', {
    timeout: 120_000,
  }, async () => {
    const dir = await databaseDir();
    const demo = await openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    await demo.close();
    // Demo data off: the folder opens, then is refused for its published accounts, and is closed again.
    const failure = await openDatabase({ kind: 'pglite', dir }, leaseOptions()).then(
      async (database) => {
        await database.close();
        return 'opened';
      },
      (error: unknown) => ({ message: (error as Error).message, leaseLeft: existsSync(lockOf(dir)) }),
    );
    expect(failure).toEqual({
      message: expect.stringContaining('still holds demo accounts'),
      leaseLeft: false,
    });
  });

  it('gives the lease back on close, and the folder opens again with its data', {
    timeout: 120_000,
  }, async () => {
    const dir = await databaseDir();
    const first = await openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    await first.close();
    expect(await lockFiles(dir)).toEqual([]);
    // As the embedded default opens it: demo data on (written once, so not again).
    const second = await openDatabase({ kind: 'pglite', dir }, { ...leaseOptions(), demoData: true });
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

describe('migrateDatabase (`npm run db:migrate`, in this process)', { timeout: 120_000 }, () => {
  it('runs every migration of a new folder, in order, and has given the folder back when it resolves', async () => {
    const dir = await databaseDir();
    const run = await migrateDatabase({ kind: 'pglite', dir });
    const leaseAfter = existsSync(lockOf(dir));
    expect({ run, leaseAfter }).toEqual({
      run: { where: `PGlite in ${dir}`, ran: Object.keys(migrations) },
      leaseAfter: false,
    });
    const again = await migrateDatabase({ kind: 'pglite', dir });
    expect(again).toEqual({ where: `PGlite in ${dir}`, ran: [] });
  });

  it('with removeDemoData, removes the accounts that take a published password, after migrating', async () => {
    const dir = await databaseDir();
    const demo = await openDatabase({ kind: 'pglite', dir }, WITH_DEMO_DATA);
    await demo.close();
    const run = await migrateDatabase({ kind: 'pglite', dir }, { removeDemoData: true });
    const leaseAfter = existsSync(lockOf(dir));
    expect({ run, leaseAfter }).toEqual({
      run: { where: `PGlite in ${dir}`, ran: [], removed: REMOVED },
      leaseAfter: false,
    });
    const after = await openDatabase({ kind: 'pglite', dir }, leaseOptions());
    cleanups.push(() => after.close());
    expect(await after.db.selectFrom('users').select('id').execute()).toEqual([]);
  });
});

describe('migrations that cannot run', { timeout: 60_000 }, () => {
  it('name the migration that failed, not the one before it that ran, and the open fails', async () => {
    // 0002 runs again (it does nothing now), then 0003 finds its table.
    const from = await dumpAfter(
      `delete from kysely_migration where name in ('0002_seed', '0003_reports', '0004_rate_limits', '0005_argon2id_seed_hashes', '0006_request_limits', '0007_accounts', '0009_page_notifications')`,
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
  it('step down one at a time to nothing, and up again to the schema alone', async () => {
    const database = await openDatabase({ kind: 'pglite', from: await migratedDump() }, WITH_DEMO_DATA);
    cleanups.push(() => database.close());
    const db = database.db.withoutPlugins();
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const tables = async () => (await db.introspection.getTables()).map((table) => table.name).sort();
    const count = async (table: string) =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]?.n,
      );

    await withSeedHashes(database);
    // 0009: the notification triggers and the list's index go; every table stays.
    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await tables()).toEqual([
      'campaigns',
      'rate_limits',
      'reports',
      'request_limits',
      'sessions',
      'users',
    ]);
    const triggers = await sql<{
      n: string;
    }>`select count(*) as n from pg_trigger where not tgisinternal`.execute(db);
    expect(Number(triggers.rows[0]?.n)).toBe(0);

    // 0007: the users' email key and its unique index go; every table stays.
    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await tables()).toEqual([
      'campaigns',
      'rate_limits',
      'reports',
      'request_limits',
      'sessions',
      'users',
    ]);

    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await tables()).toEqual(['campaigns', 'rate_limits', 'reports', 'sessions', 'users']);

    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await hashes(database)).toEqual(OLD_SCRYPT);
    expect(await tables()).toEqual(['campaigns', 'rate_limits', 'reports', 'sessions', 'users']);

    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await tables()).toEqual(['campaigns', 'reports', 'sessions', 'sign_in_limits', 'users']);

    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect(await tables()).toEqual(['campaigns', 'sessions', 'sign_in_limits', 'users']);

    // 0002 no longer touches data, either way.
    expect((await migrator.migrateDown()).error).toBeUndefined();
    expect([await count('users'), await count('campaigns')]).toEqual([
      seed.users.length,
      seed.campaigns.length,
    ]);

    expect((await migrator.migrateTo(NO_MIGRATIONS)).error).toBeUndefined();
    expect(await tables()).toEqual([]);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await tables()).toEqual([
      'campaigns',
      'rate_limits',
      'reports',
      'request_limits',
      'sessions',
      'users',
    ]);
    // Flood counts skip the WAL (0006); the sign-in and report limits, which must outlive a crash, do not.
    const { rows } = await sql<{
      name: string;
      persistence: string;
    }>`select relname as name, relpersistence as persistence from pg_class where relname in ('rate_limits', 'request_limits') order by relname`.execute(
      db,
    );
    expect(rows).toEqual([
      { name: 'rate_limits', persistence: 'p' },
      { name: 'request_limits', persistence: 'u' },
    ]);
    expect([await count('users'), await count('campaigns')]).toEqual([0, 0]);
  });
});

/** The hashes 0002_seed wrote for u1 and u2, before 0005. */
const OLD_SCRYPT = [
  'scrypt$b2a86f5da897b7b532f3de2399551c11$ef2e4c7e20b2b49220659ae166ca72add99888e7d58b35ae76a3da7b70f3cdce',
  'scrypt$27f7d89e13ba13cf304e7ce420256575$4de7b850e1dafbc5ca6038d790330875cf696df94c9c03cda90f6c3b510b6b82',
];

async function hashes(database: OpenDatabase): Promise<string[]> {
  const rows = await database.db.selectFrom('users').select('passwordHash').orderBy('id').execute();
  return rows.map((row) => row.passwordHash);
}

/**
 * The demo accounts with the seed file's own argon2id hashes, as 0005 wrote them into databases made before the
 * demo accounts were made through the sign-up's code (which hashes the passwords afresh).
 */
async function withSeedHashes(database: OpenDatabase): Promise<void> {
  for (const user of seed.users) {
    await database.db
      .updateTable('users')
      .set({ passwordHash: user.passwordHash })
      .where('id', '=', user.id)
      .execute();
  }
}

describe('0005_argon2id_seed_hashes', { timeout: 60_000 }, () => {
  it('replaces exactly the seed’s old scrypt hashes, with argon2id hashes of the demo passwords', async () => {
    const database = await openDatabase({ kind: 'pglite', from: await migratedDump() }, WITH_DEMO_DATA);
    cleanups.push(() => database.close());
    const migrator = new Migrator({
      db: database.db.withoutPlugins(),
      provider: { getMigrations: async () => migrations },
    });
    // A database as 0004 left it: both demo accounts on the seed's scrypt, then Sam changed password.
    await withSeedHashes(database);
    expect((await migrator.migrateTo('0004_rate_limits')).error).toBeUndefined();
    expect(await hashes(database)).toEqual(OLD_SCRYPT);
    const changed = `scrypt$${'00'.repeat(16)}$${'11'.repeat(32)}`;
    await database.db.updateTable('users').set({ passwordHash: changed }).where('id', '=', 'u2').execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const [demo, sam] = await hashes(database);
    expect([demo, sam]).toEqual([seed.users[0]?.passwordHash, changed]);
    const passwords = new Passwords();
    expect(await passwords.check('demo-password', demo)).toEqual({ ok: true, needsRehash: false });
    const samSeed = seed.users[1]?.passwordHash;
    expect(samSeed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await passwords.check('sam-password', samSeed)).toEqual({ ok: true, needsRehash: false });
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
      'CREATE INDEX campaigns_status_id ON public.campaigns USING btree (status, id DESC)',
      'CREATE INDEX reports_received_idx ON public.reports USING btree (received_at, id)',
      'CREATE INDEX sessions_expires_idx ON public.sessions USING btree (expires_at)',
      'CREATE INDEX sessions_last_seen_idx ON public.sessions USING btree (last_seen_at)',
      'CREATE INDEX sessions_user_idx ON public.sessions USING btree (user_id, created_at)',
      'CREATE UNIQUE INDEX users_email_key ON public.users USING btree (email_key)',
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
      { column: 'request_limits.points', default: '0' },
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
