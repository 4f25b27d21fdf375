// @vitest-environment node
// The database layer at start-up: migrations and demo data, reopening, the embedded folder's lease, and clear
// start-up errors. (The configuration read from the environment is tests/api/config.test.ts.)
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseOpenError, type OpenDatabase, openDatabase, redact } from '../../../api/database/open';
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
  request_limits: ['expire', 'key', 'points'],
  sessions: ['created_at', 'expires_at', 'id_hash', 'last_seen_at', 'user_id'],
  users: ['created_at', 'display_name', 'email', 'email_key', 'id', 'password_hash'],
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
      '0006_request_limits',
      '0007_accounts',
      '0009_page_notifications',
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
        .values({
          id: 'u9',
          email: 'DEMO@example.com',
          emailKey: 'demo@example.com',
          displayName: 'X',
          passwordHash: 'x',
        })
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
