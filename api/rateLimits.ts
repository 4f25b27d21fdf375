/**
 * Rate limits kept in the database (rate-limiter-flexible's Postgres store over Kysely), so every server process
 * on one database shares the counts: sign-in attempts (./signInLimits.ts) and error reports (./reports.ts).
 * The `rate_limits` table comes from our migrations and is swept by the sessions' pruning (./sessions.ts).
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

/** One limit: `consume` takes a point for a key or throws RateLimited. */
export function databaseLimit(db: Kysely<Database>, options: LimitOptions) {
  // The library speaks node-postgres's `query({ text, values })`; this runs it through Kysely, so the same
  // store works on PGlite and on a PostgreSQL pool.
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
  const limiter = new RateLimiterPostgres({
    storeClient,
    storeType: 'client',
    tableName: 'rate_limits',
    // The table comes from our migration, and our session pruning sweeps it.
    tableCreated: true,
    clearExpiredByTimeout: false,
    ...options,
  });
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

/**
 * A key of bounded length for any text (keys are varchar(255), and an email or a path can be longer): a
 * digest, which also keeps the text itself out of the table.
 */
export function digestKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url');
}
