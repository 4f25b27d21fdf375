/**
 * The store of the per-address flood limits (./rateLimit.ts) in the database, so that every instance on one
 * PostgreSQL counts a client's requests together ("every limit lives in the database"). It is
 * @fastify/rate-limit's custom store over api/rateLimits.ts's counter: one upsert into the UNLOGGED
 * `request_limits` table per counted request, one round trip; the plugin compares the count with the limit and
 * writes the headers, as with its own memory store. A database that does not answer fails the request (the
 * plugin's default) rather than lifting the limit.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import type { Database } from '../../api/database/schema.ts';
import { databaseCounter } from '../../api/rateLimits.ts';

type Counter = ReturnType<typeof databaseCounter>;

/** A store class for `fastifyRateLimit`'s `store` option, counting in `db`. */
export function databaseStore(db: Kysely<Database>): FastifyRateLimitStoreCtor {
  // One counter per window length (both policies use a minute); the keys carry the policy.
  const counters = new Map<number, Counter>();
  const counterFor = (timeWindowMs: number): Counter => {
    let counter = counters.get(timeWindowMs);
    if (!counter) {
      counter = databaseCounter(db, { keyPrefix: 'requests', windowSeconds: timeWindowMs / 1000 });
      counters.set(timeWindowMs, counter);
    }
    return counter;
  };
  return class DatabaseStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      counterFor(timeWindow)
        .count(key)
        .then(
          ({ counted, msBeforeNext }) => callback(null, { current: counted, ttl: msBeforeNext }),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
    }

    // Each route's or limiter's settings reach `incr` with every call: one store serves them all.
    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
