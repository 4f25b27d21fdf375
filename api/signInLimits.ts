import { createHash } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { ApiConfig } from './config.ts';
import type { Database } from './database/schema.ts';

/** A refused sign-in attempt: wait this long before the next. */
export class TooManyAttempts extends Error {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    super(
      `Too many sign-in attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`,
    );
  }
}

/**
 * Failed sign-ins counted per client address and per email address, in rate-limiter-flexible's
 * Postgres store, so every server process on one database shares the counts. An attempt takes a
 * point from both before the password is checked (parallel guesses cannot slip past the check);
 * a successful sign-in gives its points back.
 */
export class SignInLimits {
  private readonly byAddress: RateLimiterPostgres;
  private readonly byAccount: RateLimiterPostgres;

  constructor(db: Kysely<Database>, config: ApiConfig['signInLimits']) {
    // The library speaks node-postgres's `query({ text, values })`; this runs it through Kysely, so
    // the same store works on PGlite and on a PostgreSQL pool.
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
    const common = {
      storeClient,
      storeType: 'client',
      tableName: 'sign_in_limits',
      // The table comes from our migration, and our session pruning sweeps it.
      tableCreated: true,
      clearExpiredByTimeout: false,
      duration: config.windowSeconds,
    };
    this.byAddress = new RateLimiterPostgres({ ...common, keyPrefix: 'addr', points: config.perAddress });
    this.byAccount = new RateLimiterPostgres({ ...common, keyPrefix: 'acct', points: config.perAccount });
  }

  /** Takes one attempt from both budgets, or throws TooManyAttempts. */
  async take(address: string, email: string): Promise<void> {
    await consume(this.byAddress, address);
    await consume(this.byAccount, accountKey(email));
  }

  /** The attempt succeeded: it does not count against the address, and the account starts afresh. */
  async succeeded(address: string, email: string): Promise<void> {
    await this.byAddress.reward(address, 1);
    await this.byAccount.delete(accountKey(email));
  }
}

async function consume(limiter: RateLimiterPostgres, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      throw new TooManyAttempts(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    }
    throw rejection;
  }
}

// Keys are varchar(255) and an email may be 254 characters of any script: a digest always fits.
function accountKey(email: string): string {
  return createHash('sha256').update(email.toLowerCase()).digest('base64url');
}
