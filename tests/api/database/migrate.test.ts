// @vitest-environment node
// Migrations are schema only, the demo data is its own step, and MIGRATE_ON_START=0 makes migrating a
// step of its own (`npm run db:migrate`). Each case starts the API as the server does (createApiApp over
// readApiConfig of an environment) on a new database of each kind: a DATA_DIR folder, or a DATABASE_URL one.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiApp } from '../../../api/app';
import { readApiConfig } from '../../../api/config';
import { writeDemoData } from '../../../api/database/demoData';
import { migrations } from '../../../api/database/migrations/index';
import { DatabaseOpenError, type OpenDatabase } from '../../../api/database/open';
import seed from '../../../api/fixtures/seed.json' with { type: 'json' };
import { OWASP_ARGON2ID, Passwords } from '../../../api/passwords';
import { backends, freshPostgresDatabase } from '../../support/apiHarness';

type Env = Record<string, string>;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const DEMO_EMAILS = seed.users.map((user) => user.email).sort();
const ALL_MIGRATIONS = Object.keys(migrations);

/** `npm run db:migrate` as an operator runs it, with only `env` for the database. */
async function dbMigrate(
  env: Env,
  args: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { PATH, HOME } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'db:migrate', ...(args.length > 0 ? ['--', ...args] : [])],
      { env: { PATH, HOME, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe.each(backends())('migrating and the demo data on %s', { timeout: 180_000 }, (kind) => {
  /** A new, empty database of this kind, as the environment names it. */
  const fresh = async (): Promise<Env> => {
    if (kind === 'postgres') {
      const { url, drop } = await freshPostgresDatabase();
      cleanups.push(drop);
      return { DATABASE_URL: url };
    }
    const dir = await mkdtemp(path.join(tmpdir(), 'campaign-web-migrate-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return { DATA_DIR: dir };
  };
  /** The API started on `env`, as the server starts it; stopped after the test. */
  const start = async (env: Env): Promise<OpenDatabase> => {
    const { app, database } = await createApiApp({ config: readApiConfig(env) });
    cleanups.push(() => app.close());
    return database;
  };
  const emails = async (database: OpenDatabase) =>
    (await database.db.selectFrom('users').select('email').orderBy('email').execute()).map(
      (row) => row.email,
    );
  const campaignCount = async (database: OpenDatabase) =>
    (await database.db.selectFrom('campaigns').select('id').execute()).length;
  const tables = async (database: OpenDatabase) =>
    (await database.db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name).sort();

  it(
    kind === 'pglite'
      ? 'writes the demo data by default into a new embedded database'
      : 'gives a DATABASE_URL database the schema and no demo account',
    async () => {
      const database = await start(await fresh());
      expect(await emails(database)).toEqual(kind === 'pglite' ? DEMO_EMAILS : []);
      expect(await campaignCount(database)).toBe(kind === 'pglite' ? seed.campaigns.length : 0);
      expect(await tables(database)).toEqual(
        expect.arrayContaining([
          'campaigns',
          'kysely_migration',
          'rate_limits',
          'reports',
          'sessions',
          'users',
        ]),
      );
    },
  );

  it('writes the demo data with DEMO_DATA=1, none with DEMO_DATA=0', async () => {
    const withDemo = await start({ ...(await fresh()), DEMO_DATA: '1' });
    expect(await emails(withDemo)).toEqual(DEMO_EMAILS);
    expect(await campaignCount(withDemo)).toBe(seed.campaigns.length);
    const without = await start({ ...(await fresh()), DEMO_DATA: '0' });
    expect(await emails(without)).toEqual([]);
    expect(await campaignCount(without)).toBe(0);
  });

  it('writes the demo data once: never into a database that has accounts, so deleted demo rows stay deleted', async () => {
    const env = await fresh();
    const database = await start({ ...env, DEMO_DATA: '1' });
    await database.db.deleteFrom('campaigns').where('id', '=', 1).execute();
    expect(await writeDemoData(database.db)).toBe(false);
    expect(await campaignCount(database)).toBe(seed.campaigns.length - 1);
    await database.db.deleteFrom('campaigns').execute();
    await database.db.deleteFrom('users').where('id', '=', 'u2').execute();
    expect(await writeDemoData(database.db)).toBe(false);
    expect(await emails(database)).toEqual(['demo@example.com']);
  });

  it('refuses to start on an empty database with MIGRATE_ON_START=0, naming npm run db:migrate; that run lets it start', async () => {
    const env = await fresh();
    const refused = await createApiApp({ config: readApiConfig({ ...env, MIGRATE_ON_START: '0' }) }).then(
      () => new Error('started'),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DatabaseOpenError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        `^The database \\(.+\\) is not up to date: ${ALL_MIGRATIONS.length} migrations to run \\(${ALL_MIGRATIONS.join(', ')}\\)\\. ` +
          'MIGRATE_ON_START=0 says migrations are a separate step: run `npm run db:migrate` with the same ' +
          'environment, then start again\\.$',
      ),
    );

    const migrated = await dbMigrate(env);
    expect(migrated.stderr).toBe('');
    expect(migrated.stdout).toMatch(
      new RegExp(`: ran ${ALL_MIGRATIONS.join(', ')}\\. It is up to date\\.\\n$`),
    );
    expect(migrated.code).toBe(0);
    expect((await dbMigrate(env)).stdout).toMatch(/ is up to date: no migration to run\.\n$/);

    const database = await start({ ...env, MIGRATE_ON_START: '0' });
    // db:migrate writes no demo data; the start writes it where it is on (the embedded default).
    expect(await emails(database)).toEqual(kind === 'pglite' ? DEMO_EMAILS : []);
  });

  // A database that ran the old 0002_seed (or once had DEMO_DATA on) keeps the demo accounts, whose passwords the
  // README publishes: with the demo data off that is a production database anyone can sign in to. DEMO_DATA=1
  // writes the very rows the old seed left after 0005 (the seed's ids, emails and argon2id hashes: open.test.ts
  // checks that 0005 turns 0002's scrypt hashes into exactly those).
  it('refuses to start with DEMO_DATA=0 while an account still takes a published demo password, until db:migrate --remove-demo-data', async () => {
    const env = await fresh();
    const demo = await createApiApp({ config: readApiConfig({ ...env, DEMO_DATA: '1' }) });
    const db = demo.database.db;
    // Sam's password was hashed again at other parameters (as a sign-in upgrade would): the same password.
    const rehashed = await new Passwords({ ...OWASP_ARGON2ID, timeCost: 3 }).hash('sam-password');
    await db.updateTable('users').set({ passwordHash: rehashed }).where('id', '=', 'u2').execute();
    // The operator's own account, and a campaign of theirs, which must survive the removal.
    await db
      .insertInto('users')
      .values({
        id: 'owner',
        email: 'owner@campaigns.example',
        emailKey: 'owner@campaigns.example',
        displayName: 'Owner',
        passwordHash: await new Passwords().hash('a password of their own'),
      })
      .execute();
    await db
      .insertInto('campaigns')
      .values({
        id: 100,
        title: 'Ours',
        summary: 's',
        description: 'd',
        status: 'active',
        goal: 10,
        raised: 0,
        ownerId: 'owner',
        featured: false,
        image: null,
        startsOn: '2025-01-01',
        endsOn: '2025-12-31',
      })
      .execute();
    await demo.app.close();

    const refused = await createApiApp({ config: readApiConfig({ ...env, DEMO_DATA: '0' }) }).then(
      () => new Error('started'),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DatabaseOpenError);
    expect((refused as Error).message).toMatch(
      new RegExp(
        '^The database \\(.+\\) still holds demo accounts whose passwords the README publishes ' +
          '\\(demo@example\\.com, sam@example\\.com\\), and DEMO_DATA is off: anyone could sign in as them\\. ' +
          'Remove them and their campaigns with `npm run db:migrate -- --remove-demo-data` ' +
          '\\(`node server/index\\.mjs --migrate --remove-demo-data` beside the artifact\\) with the same ' +
          'environment, or set DEMO_DATA=1 if this is a demo\\.$',
      ),
    );

    const removed = await dbMigrate(env, ['--remove-demo-data']);
    expect(removed.stderr).toBe('');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(
      new RegExp(
        ` is up to date: no migration to run\\.\\n\\[db:migrate\\] Removed 2 demo accounts ` +
          `\\(demo@example\\.com, sam@example\\.com\\), their sessions and their ${seed.campaigns.length} campaigns\\.\\n$`,
      ),
    );
    expect((await dbMigrate(env, ['--remove-demo-data'])).stdout).toMatch(
      /\[db:migrate\] No demo account with a published password is left: nothing to remove\.\n$/,
    );

    const database = await start({ ...env, DEMO_DATA: '0' });
    expect(await emails(database)).toEqual(['owner@campaigns.example']);
    expect((await database.db.selectFrom('campaigns').select('id').execute()).map((row) => row.id)).toEqual([
      100,
    ]);
  });

  it('starts with DEMO_DATA=0 on demo accounts whose passwords were changed: they are no longer published', async () => {
    const env = await fresh();
    const demo = await createApiApp({ config: readApiConfig({ ...env, DEMO_DATA: '1' }) });
    const passwords = new Passwords();
    for (const id of ['u1', 'u2'])
      await demo.database.db
        .updateTable('users')
        .set({ passwordHash: await passwords.hash(`changed by the operator ${id}`) })
        .where('id', '=', id)
        .execute();
    await demo.app.close();
    const database = await start({ ...env, DEMO_DATA: '0' });
    expect(await emails(database)).toEqual(DEMO_EMAILS);
  });
});

describe('npm run db:migrate', () => {
  it('says what is wrong with the environment, and fails', { timeout: 60_000 }, async () => {
    const run = await dbMigrate({ DATABASE_URL: 'mysql://db/x' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^\[db:migrate\] .*DATABASE_URL/);
  });
});
