/**
 * Rate limits kept in the database (rate-limiter-flexible's Postgres store over Kysely), so every server process
 * on one database shares the counts: sign-in attempts (./signInLimits.ts) and error reports (./reports.ts) in
 * `rate_limits`, and the production server's per-address flood limits (server/plugins/rateLimitStore.ts) in
 * `request_limits`. Both tables come from our migrations and are swept by the sessions' pruning (./sessions.ts).
 */
import { createHash } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from './database/schema.ts';

/** A refusal: the caller may try again after this many seconds. */
export class RateLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Rate limited: retry after ${retryAfterSeconds} s.`);
  }
}

export interface LimitOptions {
  /** Distinguishes the limits sharing the table. */
  keyPrefix: string;
  points: number;
  /** The window, in seconds. */
  duration: number;
}

/**
 * The library's Postgres store on `table`. It speaks node-postgres's `query({ text, values })`; this runs it
 * through Kysely, so the same store works on PGlite and on a PostgreSQL pool.
 */
function postgresStore(
  db: Kysely<Database>,
  table: 'rate_limits' | 'request_limits',
  options: LimitOptions,
): RateLimiterPostgres {
  const storeClient = {
    async query(q: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(q.text, q.values ?? []));
      const rows = result.rows as { points: number; expire: string | number | null }[];
      return {
        // int8 arrives as text from node-postgres; the library does arithmetic on it.
        rows: rows.map((row) => ({ ...row, expire: row.expire === null ? null : Number(row.expire) })),
        rowCount: result.numAffectedRows === undefined ? rows.length : Number(result.numAffectedRows),
      };
    },
  };
  return new RateLimiterPostgres({
    storeClient,
    storeType: 'client',
    tableName: table,
    // The table comes from our migration, and our session pruning sweeps it.
    tableCreated: true,
    clearExpiredByTimeout: false,
    ...options,
  });
}

/** One limit: `consume` takes a point for a key or throws RateLimited. */
export function databaseLimit(db: Kysely<Database>, options: LimitOptions) {
  const limiter = postgresStore(db, 'rate_limits', options);
  return {
    async consume(key: string, points = 1): Promise<void> {
      try {
        await limiter.consume(key, points);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          throw new RateLimited(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
        }
        throw rejection;
      }
    },
    /** Points `key` has used in its current window. */
    async usedPoints(key: string): Promise<number> {
      return (await limiter.get(key))?.consumedPoints ?? 0;
    },
    /** Seconds until `key` may consume again when its points are used up; 0 when it may now. */
    async waitSeconds(key: string): Promise<number> {
      const state = await limiter.get(key);
      if (!state || state.consumedPoints < options.points) return 0;
      return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    },
    reward: (key: string, points = 1) => limiter.reward(key, points),
    delete: (key: string) => limiter.delete(key),
  };
}

export type DatabaseLimit = ReturnType<typeof databaseLimit>;

/** Where a key stands in its window after a count: the requests counted, and when the window ends. */
export interface Count {
  counted: number;
  msBeforeNext: number;
}

/**
 * A counter of requests per key and fixed window, in `request_limits` (one upsert, one round trip, per count). It
 * refuses nothing itself: the caller compares the count with its limit (server/plugins/rateLimitStore.ts).
 */
export function databaseCounter(db: Kysely<Database>, options: { keyPrefix: string; windowSeconds: number }) {
  const limiter = postgresStore(db, 'request_limits', {
    keyPrefix: options.keyPrefix,
    // Never reached, so the library never refuses: the count is what is wanted.
    points: Number.MAX_SAFE_INTEGER,
    duration: options.windowSeconds,
  });
  return {
    async count(key: string): Promise<Count> {
      const result = await limiter.consume(key, 1);
      return { counted: result.consumedPoints, msBeforeNext: result.msBeforeNext };
    },
  };
}

/**
 * A key of bounded length for any text (keys are varchar(255), and an email or a path can be longer): a
 * digest, which also keeps the text itself out of the table.
 */
export function digestKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url');
}
