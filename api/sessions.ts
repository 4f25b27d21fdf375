import { createHash, randomBytes } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { ApiConfig } from './config.ts';
import type { Database, User } from './database/schema.ts';

/** 32 random bytes, base64url: what a session cookie carries. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
// Writing last_seen_at on every request would turn each read into a write; a minute's precision is
// plenty for a 30-minute idle limit.
const TOUCH_AFTER_MS = 60_000;

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * Sessions live in the database, so any server process can check any session. Each row is keyed by
 * the SHA-256 of the token, never the token itself, and carries an absolute expiry and a last-seen
 * time for the idle limit.
 */
export class Sessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: ApiConfig['sessions'],
    private readonly now: () => number,
  ) {}

  /**
   * Starts a session and returns its token. The caller's previous session, if any, ends in the same
   * transaction (a fresh id at every sign-in: no fixation), as do the user's oldest sessions beyond
   * the cap and the user's expired ones.
   */
  async start(
    userId: string,
    previousToken: string | undefined,
    inTransaction?: Transaction<Database>,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date(this.now());
    const run = <T>(work: (tx: Transaction<Database>) => Promise<T>) =>
      inTransaction ? work(inTransaction) : this.db.transaction().execute(work);
    await run(async (tx) => {
      // Stryker disable next-line ConditionalExpression: for an undefined cookie `TOKEN.test(undefined)` tests the string 'undefined', which is not 43 base64url characters, so the condition is false either way.
      // Stryker disable next-line LogicalOperator: a cookie that is not a token would have its digest deleted, and no session is stored under the digest of a malformed value (sessions are stored only under digests of the 32-byte tokens this class makes); an undefined cookie still deletes nothing (`TOKEN.test(undefined)` is false). The format check only saves a statement.
      if (previousToken !== undefined && TOKEN.test(previousToken)) {
        await tx.deleteFrom('sessions').where('idHash', '=', digest(previousToken)).execute();
      }
      await tx
        .deleteFrom('sessions')
        .where('userId', '=', userId)
        .where((eb) => eb.or([eb('expiresAt', '<=', now), eb('lastSeenAt', '<=', this.idleCutoff(now))]))
        .execute();
      await tx
        .insertInto('sessions')
        .values({
          idHash: digest(token),
          userId,
          createdAt: now,
          lastSeenAt: now,
          expiresAt: new Date(now.getTime() + this.config.absoluteSeconds * 1000),
        })
        .execute();
      const keep = tx
        .selectFrom('sessions')
        .select('idHash')
        .where('userId', '=', userId)
        .orderBy('createdAt', 'desc')
        .orderBy('idHash')
        .limit(this.config.maxPerUser);
      await tx.deleteFrom('sessions').where('userId', '=', userId).where('idHash', 'not in', keep).execute();
    });
    return token;
  }

  /** The signed-in user, or undefined for a missing, unknown, idle or expired session. */
  async user(token: string | undefined): Promise<User | undefined> {
    // Stryker disable next-line ConditionalExpression: `!TOKEN.test(undefined)` is true ('undefined' is not a token), so an undefined cookie still returns undefined before any query.
    // Stryker disable next-line LogicalOperator: a malformed cookie would be looked up by its digest and found nowhere (no session is stored under the digest of anything but a real token), so the answer is the same undefined, one query later. Tested: 'ignores forged session ids'.
    if (token === undefined || !TOKEN.test(token)) return undefined;
    const now = new Date(this.now());
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.userId')
      .selectAll('users')
      .select(['sessions.idHash', 'sessions.lastSeenAt'])
      .where('sessions.idHash', '=', digest(token))
      .where('sessions.expiresAt', '>', now)
      .where('sessions.lastSeenAt', '>', this.idleCutoff(now))
      .executeTakeFirst();
    if (!row) return undefined;
    if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_AFTER_MS) {
      await this.db
        .updateTable('sessions')
        .set({ lastSeenAt: now })
        .where('idHash', '=', row.idHash)
        .execute();
    }
    const { idHash: _idHash, lastSeenAt: _lastSeenAt, ...user } = row;
    return user;
  }

  /** A sub-query for "the user of this live session", for writes that must check it atomically. */
  userIdOf(token: string | undefined) {
    const now = new Date(this.now());
    return this.db
      .selectFrom('sessions')
      .select('userId')
      .where('idHash', '=', token !== undefined && TOKEN.test(token) ? digest(token) : '')
      .where('expiresAt', '>', now)
      .where('lastSeenAt', '>', this.idleCutoff(now));
  }

  /** Ends every session of the user but the one of `keepToken` (a password change: docs/accounts.md). */
  async endOthers(
    userId: string,
    keepToken: string | undefined,
    db: Kysely<Database> = this.db,
  ): Promise<number> {
    const keep = keepToken !== undefined && TOKEN.test(keepToken) ? digest(keepToken) : '';
    const result = await db
      .deleteFrom('sessions')
      .where('userId', '=', userId)
      .where('idHash', '<>', keep)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async end(token: string | undefined): Promise<void> {
    // Stryker disable next-line ConditionalExpression: `!TOKEN.test(undefined)` is true, so signing out without a cookie still returns before any statement.
    // Stryker disable next-line LogicalOperator: a malformed cookie's digest would be deleted, and no session is stored under it, so signing out deletes nothing either way (still a 204).
    if (token === undefined || !TOKEN.test(token)) return;
    await this.db.deleteFrom('sessions').where('idHash', '=', digest(token)).execute();
  }

  /** Deletes every expired or idle session; returns how many. `db`: a transaction to run in (./pruning.ts). */
  async prune(db: Kysely<Database> = this.db): Promise<number> {
    const now = new Date(this.now());
    const result = await db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expiresAt', '<=', now), eb('lastSeenAt', '<=', this.idleCutoff(now))]))
      .executeTakeFirst();
    // Rate-limit rows an hour past their window, as rate-limiter-flexible's own sweeper would.
    await db
      .deleteFrom('rateLimits')
      .where('expire', '<', sql<number>`${Date.now() - 3_600_000}`)
      .execute();
    // The server's flood counts (server/plugins/rateLimitStore.ts) once their minute is over: the next request
    // from that address starts a new one either way.
    await db.deleteFrom('requestLimits').where('expire', '<', sql<number>`${Date.now()}`).execute();
    return Number(result.numDeletedRows);
  }

  private idleCutoff(now: Date): Date {
    return new Date(now.getTime() - this.config.idleSeconds * 1000);
  }
}
