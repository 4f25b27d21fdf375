// sessions.ts's test, on a real (embedded) database: what scripts/mutation/mutant-kinds.test.mjs runs against
// DropWhere's mutants of it. A file of its own, so the other fixtures' runs pay for no database.
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { expect, it } from 'vitest';
import { type Tables, userOfSession } from './sessions';

it("finds a live session's user, and none for an idle session or another id", async () => {
  const client = await PGlite.create();
  const db = new Kysely<Tables>({ dialect: new PGliteDialect(client) });
  try {
    await client.exec(
      'create table sessions (id text primary key, "userId" text not null, "lastSeenAt" integer not null)',
    );
    await db
      .insertInto('sessions')
      .values([
        { id: 'live', userId: 'ada', lastSeenAt: 2_000 },
        { id: 'idle', userId: 'bob', lastSeenAt: 500 },
      ])
      .execute();
    expect(await userOfSession(db, 'live', 1_000)).toBe('ada');
    expect(await userOfSession(db, 'idle', 1_000)).toBeUndefined();
  } finally {
    await db.destroy();
  }
});
