// @vitest-environment node
// The page listener (server/render/listener.ts) on the triggers of migration 0009, on PGlite and (when
// TEST_DATABASE_URL is set) PostgreSQL: each write to a campaign names it, a change of what lists show says so,
// a rolled-back write says nothing, and on PostgreSQL a terminated connection is noticed, reconnected with
// backoff, and reported as a reconnection (the server then drops its whole cache).
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenDatabase } from '../../../api/database/open';
import { backoffDelay, type PageListener, startPageListener } from '../../../server/render/listener';
import { backends, openTestDatabase } from '../../support/apiHarness';

const quiet = { warn: () => {}, info: () => {} };

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the backoff', () => {
  it('doubles from the first wait to the longest, with up to half of it as jitter', () => {
    const backoff = { initialMs: 100, maxMs: 1_000 };
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelay(n, backoff, () => 1))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    expect(backoffDelay(0, backoff, () => 0)).toBe(50);
    expect(backoffDelay(10, backoff, () => 0)).toBe(500);
  });
});

describe.each(backends())('the page listener on %s', (kind) => {
  let database: OpenDatabase | undefined;
  let listener: PageListener | undefined;
  afterEach(async () => {
    await listener?.close();
    await database?.close();
    listener = undefined;
    database = undefined;
  });

  async function listen() {
    database = await openTestDatabase(kind);
    const messages: string[] = [];
    const states: [boolean, boolean][] = [];
    const source = database.notifications;
    if (!source) throw new Error('no notification source');
    listener = await startPageListener({
      source,
      onMessage: (text) => messages.push(text),
      onState: (on, reconnected) => states.push([on, reconnected]),
      log: quiet,
      backoff: { initialMs: 20, maxMs: 200 },
    });
    return { db: database.db, messages, states };
  }

  it('hears each committed write to a campaign, and whether lists change with it', {
    timeout: 60_000,
  }, async () => {
    const { db, messages, states } = await listen();
    expect(states).toEqual([[true, false]]);
    expect(listener?.status()).toMatchObject({ listening: true, reason: null });

    await db.updateTable('campaigns').set({ title: 'Renamed' }).where('id', '=', 1).execute();
    await until(() => messages.length === 1, 'the edit');
    expect(JSON.parse(messages[0] ?? '')).toEqual({ campaign: 1, list: false });

    await db.updateTable('campaigns').set({ status: 'completed' }).where('id', '=', 2).execute();
    await until(() => messages.length === 2, 'the status change');
    expect(JSON.parse(messages[1] ?? '')).toEqual({ campaign: 2, list: true });

    await db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('campaigns').set({ title: 'Never' }).where('id', '=', 3).execute();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await db.deleteFrom('campaigns').where('id', '=', 4).execute();
    await until(() => messages.length === 3, 'the delete');
    // The rolled-back edit of 3 said nothing; the delete changes the lists.
    expect(JSON.parse(messages[2] ?? '')).toEqual({ campaign: 4, list: true });
  });

  if (kind === 'postgres') {
    it('notices its backend terminated, reconnects, says it reconnected, and hears writes again', {
      timeout: 60_000,
    }, async () => {
      const { db, messages, states } = await listen();
      const terminated = await sql<{ ok: boolean }>`select pg_terminate_backend(pid) as ok
          from pg_stat_activity where query ilike 'listen %' and datname = current_database()`.execute(db);
      expect(terminated.rows).toEqual([{ ok: true }]);
      await until(() => states.some(([on]) => !on), 'the loss');
      await until(() => states.at(-1)?.[0] === true && states.length >= 3, 'the reconnection');
      expect(states.at(-1)).toEqual([true, true]);
      expect(listener?.status()).toMatchObject({ listening: true, reconnects: 1 });

      await db.updateTable('campaigns').set({ raised: 5 }).where('id', '=', 6).execute();
      await until(() => messages.length === 1, 'the write after reconnecting');
      expect(JSON.parse(messages[0] ?? '')).toEqual({ campaign: 6, list: false });
    });

    it('keeps trying a server that is not there, and stops when closed', { timeout: 30_000 }, async () => {
      const states: boolean[] = [];
      const down = await startPageListener({
        source: { kind: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' },
        onMessage: () => {},
        onState: (on) => states.push(on),
        log: quiet,
        backoff: { initialMs: 10, maxMs: 40 },
      });
      await until(() => states.length >= 3, 'three attempts');
      expect(states.every((on) => !on)).toBe(true);
      expect(down.status()).toMatchObject({ listening: false });
      expect(down.status().reason).toMatch(/notification connection lost/);
      await down.close();
      const after = states.length;
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(states.length).toBe(after);
    });
  }
});
