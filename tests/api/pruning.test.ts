// @vitest-environment node
/**
 * The periodic sweep runs in one instance at a time (api/pruning.ts): on PostgreSQL a round finds the advisory
 * lock held by another connection and skips; on PGlite it just runs. The API sweeps when it starts, so
 * starting one is a round.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRUNE_LOCK_KEY, pruneInOneInstance } from '../../api/pruning';
import { Sessions } from '../../api/sessions';
import { apiClient, backends, POSTGRES_URL, useApi } from '../support/apiHarness';

const DAY = 86_400_000;

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(backends())('pruning on %s', (kind) => {
  const { database } = useApi(kind);

  /** A session long expired, which a sweep deletes. */
  async function expiredSession(idHash: string) {
    const old = new Date(Date.now() - 30 * DAY);
    await database()
      .db.insertInto('sessions')
      .values({
        idHash,
        userId: 'u1',
        createdAt: old,
        lastSeenAt: old,
        expiresAt: new Date(old.getTime() + DAY),
      })
      .execute();
  }
  const sessionsLeft = async () =>
    (await database().db.selectFrom('sessions').select('idHash').execute()).map((row) => row.idHash);

  it('sweeps when the API starts, inside the lock', async () => {
    await expiredSession('a'.repeat(43));
    const client = await apiClient(database());
    await client.close();
    expect(await sessionsLeft()).toEqual([]);
  });

  it('is ready only once its first sweep has ended', async () => {
    // The first sweep is held until the test lets it go; the start must wait for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let began = () => {};
    const sweeping = new Promise<void>((resolve) => {
      began = resolve;
    });
    const prune = Sessions.prototype.prune;
    vi.spyOn(Sessions.prototype, 'prune').mockImplementationOnce(async function (
      this: Sessions,
      ...args: Parameters<Sessions['prune']>
    ) {
      began();
      await held;
      return prune.apply(this, args);
    });
    let ready = false;
    const starting = apiClient(database()).then((client) => {
      ready = true;
      return client;
    });
    await sweeping;
    // Time enough for a start that does not wait to finish (it has nothing else to wait for).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const readyWhileSweeping = ready;
    release();
    await (await starting).close();
    expect({ readyWhileSweeping, ready }).toEqual({ readyWhileSweeping: false, ready: true });
  });

  it('runs the sweeps in order, in one transaction that ends with the lock', async () => {
    const ran: string[] = [];
    expect(
      await pruneInOneInstance(database().db, [
        async () => ran.push('sessions'),
        async () => ran.push('reports'),
      ]),
    ).toBe(true);
    expect(ran).toEqual(['sessions', 'reports']);
    // The lock went with the transaction: the next round takes it again.
    expect(await pruneInOneInstance(database().db, [async () => ran.push('again')])).toBe(true);
    expect(ran).toEqual(['sessions', 'reports', 'again']);
  });

  // Only PostgreSQL has other instances (and other connections) to hold the lock.
  if (kind === 'postgres')
    it('skips the round while another instance holds the lock', async () => {
      // Another instance mid-sweep: a connection of its own holding the same lock.
      const other = new pg.Client({ connectionString: await databaseUrl() });
      await other.connect();
      try {
        await other.query('select pg_advisory_lock($1::bigint)', [PRUNE_LOCK_KEY.toString()]);
        await expiredSession('b'.repeat(43));
        const ran: string[] = [];
        expect(await pruneInOneInstance(database().db, [async () => ran.push('sweep')])).toBe(false);
        expect(ran).toEqual([]);
        const client = await apiClient(database());
        await client.close();
        expect(await sessionsLeft()).toEqual(['b'.repeat(43)]);

        await other.query('select pg_advisory_unlock($1::bigint)', [PRUNE_LOCK_KEY.toString()]);
        const next = await apiClient(database());
        await next.close();
        expect(await sessionsLeft()).toEqual([]);
      } finally {
        await other.end();
      }
    });

  /** The test database's own address: a fresh database on the test server (openTestDatabase). */
  async function databaseUrl(): Promise<string> {
    if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set');
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database().db);
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${rows[0]?.name}`;
    return url.toString();
  }
});
