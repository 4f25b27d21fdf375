// @vitest-environment node
// The migrations' statements, one by one, on an embedded database: each is awaited (a statement that fails fails
// its migration, which is rolled back and reported, never recorded as applied while the error floats away), the
// partial index is partial, and 0005 replaces only the seed's own hashes, on the way up and down.
import { PGlite } from '@electric-sql/pglite';
import { type Kysely, Kysely as KyselyDb, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../api/database/migrations/index';

// biome-ignore lint/suspicious/noExplicitAny: the migrations' own type for a database of any schema.
type AnyDb = Kysely<any>;

/** A new, empty in-memory database (initdb: seconds of WebAssembly on a busy machine). */
async function emptyDatabase(): Promise<{ db: AnyDb; migrator: Migrator }> {
  const db: AnyDb = new KyselyDb({ dialect: new PGliteDialect(await PGlite.create()) });
  return { db, migrator: new Migrator({ db, provider: { getMigrations: async () => migrations } }) };
}

/** The migration that failed, and whether the run reported an error. */
async function outcome(run: ReturnType<Migrator['migrateToLatest']>) {
  const { error, results } = await run;
  return {
    failed: results?.find((result) => result.status === 'Error')?.migrationName ?? null,
    error: error !== undefined,
  };
}

async function applied(migrator: Migrator): Promise<string[]> {
  return (await migrator.getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
}

/** Every object the migrations create, in the order they create it, with the migration that does. */
const CREATED = [
  ['users', '0001_initial'],
  ['users_email_lower_key', '0001_initial'],
  ['campaigns', '0001_initial'],
  ['campaigns_owner_idx', '0001_initial'],
  ['campaigns_public_idx', '0001_initial'],
  ['sessions', '0001_initial'],
  ['sessions_user_idx', '0001_initial'],
  ['sessions_expires_idx', '0001_initial'],
  ['sessions_last_seen_idx', '0001_initial'],
  ['sign_in_limits', '0001_initial'],
  ['reports', '0003_reports'],
  ['reports_received_idx', '0003_reports'],
  ['rate_limits', '0004_rate_limits'],
  ['request_limits', '0006_request_limits'],
  ['users_email_key', '0007_accounts'],
] as const;

describe('the migrations, statement by statement', { timeout: 120_000 }, () => {
  let db: AnyDb;
  let migrator: Migrator;
  beforeAll(async () => {
    ({ db, migrator } = await emptyDatabase());
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('fail the migration of any object that cannot be created, roll it back, and then run once it can', async () => {
    const seen: { name: string; failed: string | null; error: boolean; applied: boolean }[] = [];
    // In creation order: the migrations before the one that fails stay applied, so each case meets its own.
    for (const [name, migration] of CREATED) {
      // Tables and indexes share one namespace: a table of the same name makes the creation fail.
      await sql`create table ${sql.id(name)} (taken integer)`.execute(db);
      const result = await outcome(migrator.migrateToLatest());
      seen.push({ name, ...result, applied: (await applied(migrator)).includes(migration) });
      await sql`drop table ${sql.id(name)}`.execute(db);
    }
    expect(seen).toEqual(
      CREATED.map(([name, migration]) => ({ name, failed: migration, error: true, applied: false })),
    );
    expect(await outcome(migrator.migrateToLatest())).toEqual({ failed: null, error: false });
    expect(await applied(migrator)).toEqual(Object.keys(migrations));
  });

  it('index only the campaigns that are not drafts for the public listing', async () => {
    const { rows } = await sql<{ indexdef: string }>`
      select indexdef from pg_indexes where indexname = 'campaigns_public_idx'`.execute(db);
    expect(rows[0]?.indexdef).toMatch(/ WHERE \(status <> 'draft'::text\)$/);
  });

  it('fail a step down whose object is gone, and then step down to nothing once it is back', async () => {
    // What each step down needs, taken away (and given back) to make that step fail.
    const breaks: Record<string, { take: () => Promise<unknown>; give: () => Promise<unknown> }> = {
      '0007_accounts': {
        take: () => sql`alter index users_email_key rename to users_email_key_away`.execute(db),
        give: () => sql`alter index users_email_key_away rename to users_email_key`.execute(db),
      },
      '0006_request_limits': {
        take: () => sql`alter table request_limits rename to request_limits_away`.execute(db),
        give: () => sql`alter table request_limits_away rename to request_limits`.execute(db),
      },
      '0005_argon2id_seed_hashes': {
        // Stepping down writes the old scrypt hashes back, which this constraint refuses.
        take: () =>
          sql`alter table users add constraint no_scrypt check (password_hash not like 'scrypt$%')`.execute(
            db,
          ),
        give: () => sql`alter table users drop constraint no_scrypt`.execute(db),
      },
      '0004_rate_limits': {
        take: () => sql`create table sign_in_limits (taken integer)`.execute(db),
        give: () => sql`drop table sign_in_limits`.execute(db),
      },
      '0003_reports': {
        take: () => sql`alter table reports rename to reports_away`.execute(db),
        give: () => sql`alter table reports_away rename to reports`.execute(db),
      },
      '0001_initial': {
        take: () => sql`alter table sessions rename to sessions_away`.execute(db),
        give: () => sql`alter table sessions_away rename to sessions`.execute(db),
      },
    };
    expect(await outcome(migrator.migrateToLatest())).toEqual({ failed: null, error: false });
    // A demo account as 0005 left it, for its step down to write back.
    await db
      .insertInto('users')
      .values({ ...seedUser('u1', SEED_HASHES.u1.argon2id), email_key: 'u1@example.com' })
      .execute();
    const seen: { step: string; failed: string | null; error: boolean }[] = [];
    for (const step of [...Object.keys(migrations)].reverse()) {
      const broken = breaks[step];
      if (broken) {
        await broken.take();
        seen.push({ step, ...(await outcome(migrator.migrateDown())) });
        await broken.give();
      }
      expect(await outcome(migrator.migrateDown())).toEqual({ failed: null, error: false });
    }
    expect(seen).toEqual(Object.keys(breaks).map((step) => ({ step, failed: step, error: true })));
    expect(await applied(migrator)).toEqual([]);
    expect((await db.introspection.getTables()).map((table) => table.name)).toEqual([]);
  });
});

/** The seed's hashes 0005 replaces, as that migration freezes them. */
const SEED_HASHES = {
  u1: {
    scrypt:
      'scrypt$b2a86f5da897b7b532f3de2399551c11$ef2e4c7e20b2b49220659ae166ca72add99888e7d58b35ae76a3da7b70f3cdce',
    argon2id:
      '$argon2id$v=19$m=19456,t=2,p=1$g7rLP1T1YNkkTh5krKZ+cg$viMFq6aO0zLpkM/gp1lI5ESHNlxfCKbH4QaAcPYLo3s',
  },
  u2: {
    scrypt:
      'scrypt$27f7d89e13ba13cf304e7ce420256575$4de7b850e1dafbc5ca6038d790330875cf696df94c9c03cda90f6c3b510b6b82',
    argon2id:
      '$argon2id$v=19$m=19456,t=2,p=1$uT+ZveYNHSvDYVUim8X8kg$Sck4TjH01Dcdxb0uzV9DqVhM1O4pE1CmMyfeIv5inZU',
  },
} as const;

function seedUser(id: string, passwordHash: string) {
  return {
    id,
    email: `${id}@example.com`,
    password_hash: passwordHash,
    display_name: id,
    created_at: new Date(0).toISOString(),
  };
}

describe('0005: the seed accounts’ hashes, and only theirs', { timeout: 120_000 }, () => {
  const hashes = async (db: AnyDb) =>
    Object.fromEntries(
      (await db.selectFrom('users').select(['id', 'password_hash']).orderBy('id').execute()).map((row) => [
        row.id,
        row.password_hash,
      ]),
    );

  it('replaces a seed hash by its id and its value: a changed password, or another row with the same hash, stays', async () => {
    const { db, migrator } = await emptyDatabase();
    try {
      await migrator.migrateTo('0004_rate_limits');
      await db
        .insertInto('users')
        .values([
          seedUser('u1', SEED_HASHES.u1.scrypt),
          seedUser('u2', 'a hash of a changed password'),
          seedUser('u3', SEED_HASHES.u1.scrypt),
        ])
        .execute();
      expect(await outcome(migrator.migrateToLatest())).toEqual({ failed: null, error: false });
      expect(await hashes(db)).toEqual({
        u1: SEED_HASHES.u1.argon2id,
        u2: 'a hash of a changed password',
        u3: SEED_HASHES.u1.scrypt,
      });

      await sql`update users set password_hash = ${SEED_HASHES.u1.argon2id} where id = 'u3'`.execute(db);
      expect(await outcome(migrator.migrateTo('0004_rate_limits'))).toEqual({ failed: null, error: false });
      expect(await hashes(db)).toEqual({
        u1: SEED_HASHES.u1.scrypt,
        u2: 'a hash of a changed password',
        u3: SEED_HASHES.u1.argon2id,
      });
    } finally {
      await db.destroy();
    }
  });

  it('fails, and is not recorded, when a replacement cannot be written', async () => {
    const { db, migrator } = await emptyDatabase();
    try {
      await migrator.migrateTo('0004_rate_limits');
      await db.insertInto('users').values(seedUser('u2', SEED_HASHES.u2.scrypt)).execute();
      await sql`alter table users add constraint no_argon2id check (password_hash not like '$argon2id$%')`.execute(
        db,
      );
      expect(await outcome(migrator.migrateToLatest())).toEqual({
        failed: '0005_argon2id_seed_hashes',
        error: true,
      });
      expect(await applied(migrator)).not.toContain('0005_argon2id_seed_hashes');
      expect(await hashes(db)).toEqual({ u2: SEED_HASHES.u2.scrypt });
    } finally {
      await db.destroy();
    }
  });
});
