import type { Kysely } from 'kysely';
import type { ApiConfig } from './config.ts';
import type { Database } from './database/schema.ts';
import { type DatabaseLimit, databaseLimit, digestKey, RateLimited } from './rateLimits.ts';

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
 * Failed sign-ins counted per client address and per email address, in the database (./rateLimits.ts), so
 * every server process on one database shares the counts. An attempt takes a point from both before the
 * password is checked (parallel guesses cannot slip past the check); a successful sign-in gives its points back.
 */
export class SignInLimits {
  private readonly byAddress: DatabaseLimit;
  private readonly byAccount: DatabaseLimit;

  constructor(db: Kysely<Database>, config: ApiConfig['signInLimits']) {
    const duration = config.windowSeconds;
    this.byAddress = databaseLimit(db, { keyPrefix: 'addr', points: config.perAddress, duration });
    this.byAccount = databaseLimit(db, { keyPrefix: 'acct', points: config.perAccount, duration });
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

async function consume(limit: DatabaseLimit, key: string): Promise<void> {
  try {
    await limit.consume(key);
  } catch (error) {
    if (error instanceof RateLimited) throw new TooManyAttempts(error.retryAfterSeconds);
    throw error;
  }
}

// Keys are varchar(255) and an email may be 254 characters of any script: a digest always fits.
const accountKey = (email: string) => digestKey(email.toLowerCase());
