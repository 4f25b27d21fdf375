// @vitest-environment node
// The session store (api/sessions.ts) on its own, over a migrated database: each query touches only the rows it
// names (one user's, one session's), and every write is awaited: a write the database refuses fails the call
// instead of floating away while the caller is told it happened.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sessions } from '../../api/sessions';
import { backends, pinRow, resetDatabase, unpinRows, useTestDatabase } from '../support/apiHarness';

const MINUTE = 60_000;
const START = Date.UTC(2026, 0, 1, 9);
const LIMITS = { idleSeconds: 30 * 60, absoluteSeconds: 12 * 3600, maxPerUser: 3 };

describe.each(backends())('the session store on %s', (kind) => {
  const database = useTestDatabase(kind);
  let now = START;
  let sessions: Sessions;
  const db = () => database().db;
  const userOf = async (token: string) => (await sessions.user(token))?.id;
  /** The stored row of the only session a user has. */
  const onlySessionOf = async (userId: string) =>
    (
      await db()
        .selectFrom('sessions')
        .select('idHash')
        .where('userId', '=', userId)
        .executeTakeFirstOrThrow()
    ).idHash;
  beforeEach(async () => {
    await resetDatabase(database());
    now = START;
    sessions = new Sessions(db(), LIMITS, () => now);
  });
  afterEach(async () => {
    await unpinRows(db());
    for (const constraint of ['refuse_u2', 'touched_once']) {
      await sql`alter table sessions drop constraint if exists ${sql.id(constraint)}`.execute(db());
    }
  });

  describe('touches only the rows it names', () => {
    it("ends the previous session a sign-in came with, and nobody else's", async () => {
      const first = await sessions.start('u1', undefined);
      const other = await sessions.start('u2', undefined);
      const again = await sessions.start('u1', first);
      expect([await userOf(first), await userOf(other), await userOf(again)]).toEqual([
        undefined,
        'u2',
        'u1',
      ]);
    });

    it("keeps a user's newest sessions within the cap, counting that user's only", async () => {
      const oldest = await sessions.start('u1', undefined);
      for (let i = 0; i < LIMITS.maxPerUser; i++) {
        now += 1000;
        await sessions.start('u2', undefined);
      }
      now += 1000;
      const newest = await sessions.start('u1', undefined);
      expect([await userOf(oldest), await userOf(newest)]).toEqual(['u1', 'u1']);
    });

    it("moves one session's idle limit when it is used, and leaves the others' where they were", async () => {
      const used = await sessions.start('u1', undefined);
      const idle = await sessions.start('u2', undefined);
      now += 20 * MINUTE;
      expect(await userOf(used)).toBe('u1');
      now += 11 * MINUTE;
      expect([await userOf(used), await userOf(idle)]).toEqual(['u1', undefined]);
    });

    it('names the user of a live session only: never for another token, an expired or an idle session', async () => {
      const demo = await sessions.start('u1', undefined);
      const sam = await sessions.start('u2', undefined);
      const userIds = async (token: string | undefined) =>
        (await sessions.userIdOf(token).execute()).map((row) => row.userId);
      expect(await userIds(demo)).toEqual(['u1']);
      expect(await userIds(undefined)).toEqual([]);
      expect(await userIds('not a session token')).toEqual([]);
      // Past its absolute end, though used a moment ago.
      await db()
        .updateTable('sessions')
        .set({ expiresAt: new Date(now - 1000) })
        .where('idHash', '=', await onlySessionOf('u1'))
        .execute();
      expect(await userIds(demo)).toEqual([]);
      // Idle too long, though far from its absolute end.
      await db()
        .updateTable('sessions')
        .set({ lastSeenAt: new Date(now - 31 * MINUTE) })
        .where('idHash', '=', await onlySessionOf('u2'))
        .execute();
      expect(await userIds(sam)).toEqual([]);
    });

    it('signs out of that session only', async () => {
      const leaving = await sessions.start('u1', undefined);
      const staying = await sessions.start('u2', undefined);
      await sessions.end(leaving);
      expect([await userOf(leaving), await userOf(staying)]).toEqual([undefined, 'u2']);
    });
  });

  describe('fails when the database refuses a write', () => {
    it('hands out no session it could not store', async () => {
      await sql`alter table sessions add constraint refuse_u2 check (user_id <> 'u2')`.execute(db());
      await expect(sessions.start('u2', undefined)).rejects.toThrow('refuse_u2');
    });

    it('fails a sign-in whose previous session cannot be ended', async () => {
      const previous = await sessions.start('u1', undefined);
      await pinRow(db(), 'sessions', 'id_hash', await onlySessionOf('u1'));
      await expect(sessions.start('u1', previous)).rejects.toThrow('pinned_sessions');
    });

    it("fails a sign-in when the user's expired sessions cannot be ended", async () => {
      await sessions.start('u1', undefined);
      now += 31 * MINUTE;
      await pinRow(db(), 'sessions', 'id_hash', await onlySessionOf('u1'));
      await expect(sessions.start('u1', undefined)).rejects.toThrow('pinned_sessions');
    });

    it('fails a sign-in when the sessions beyond the cap cannot be ended', async () => {
      await sessions.start('u1', undefined);
      const oldest = await onlySessionOf('u1');
      for (let i = 1; i <= LIMITS.maxPerUser - 1; i++) {
        now += 1000;
        await sessions.start('u1', undefined);
      }
      await pinRow(db(), 'sessions', 'id_hash', oldest);
      now += 1000;
      await expect(sessions.start('u1', undefined)).rejects.toThrow('pinned_sessions');
    });

    it('fails a read whose last-seen time cannot be written', async () => {
      const token = await sessions.start('u1', undefined);
      await sql`alter table sessions add constraint touched_once check (last_seen_at < ${sql.lit(new Date(now + MINUTE).toISOString())})`.execute(
        db(),
      );
      now += MINUTE;
      await expect(sessions.user(token)).rejects.toThrow('touched_once');
    });

    it('fails a sign-out whose session cannot be ended', async () => {
      const token = await sessions.start('u1', undefined);
      await pinRow(db(), 'sessions', 'id_hash', await onlySessionOf('u1'));
      await expect(sessions.end(token)).rejects.toThrow('pinned_sessions');
    });

    it('fails a pruning that cannot delete an idle session, a spent limit or a spent flood count', async () => {
      await sessions.start('u1', undefined);
      now += 31 * MINUTE;
      await pinRow(db(), 'sessions', 'id_hash', await onlySessionOf('u1'));
      await expect(sessions.prune()).rejects.toThrow('pinned_sessions');
      await sql`drop table pinned_sessions`.execute(db());

      const spent = Date.now() - 2 * 3_600_000;
      await sql`insert into rate_limits (key, points, expire) values ('spent', 1, ${spent})`.execute(db());
      await pinRow(db(), 'rate_limits', 'key', 'spent');
      await expect(sessions.prune()).rejects.toThrow('pinned_rate_limits');
      await sql`drop table pinned_rate_limits`.execute(db());

      await sql`insert into request_limits (key, points, expire) values ('spent', 1, ${spent})`.execute(db());
      await pinRow(db(), 'request_limits', 'key', 'spent');
      await expect(sessions.prune()).rejects.toThrow('pinned_request_limits');
    });
  });
});
