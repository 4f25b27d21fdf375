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

type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Limits that stop guessing without locking the owner out (OWASP ASVS 4.0.3 2.2.1 and 5.0 6.1.1: anti-automation
 * that does not enable malicious lockout). Counted in the database (./rateLimits.ts), so every server process on
 * one database shares them:
 *
 * - **per client address**, whatever the accounts (`perAddress` per window, then 429): one machine guessing
 *   across many accounts;
 * - **per account and address** (`perAccount` per window, then 429): one machine guessing one password. Another
 *   address is not held back by it, so the owner signs in from their own while an attacker is being refused;
 * - **per account, from anywhere**: past `slowdown.afterFailures` in the window every attempt on the account
 *   waits `baseMs`, doubling per failure up to `maxMs`, before its password is checked. Guessing from many
 *   addresses slows down; the right password still signs in.
 *
 * Each attempt takes its points before the password is checked (parallel guesses cannot slip past the count);
 * a successful sign-in gives its own back and clears its account-and-address count.
 */
export class SignInLimits {
  private readonly byAddress: DatabaseLimit;
  private readonly byAccountAndAddress: DatabaseLimit;
  private readonly byAccount: DatabaseLimit;
  private readonly slowdown: ApiConfig['signInLimits']['slowdown'];

  constructor(
    db: Kysely<Database>,
    config: ApiConfig['signInLimits'],
    private readonly sleep: Sleep = realSleep,
  ) {
    const duration = config.windowSeconds;
    this.byAddress = databaseLimit(db, { keyPrefix: 'addr', points: config.perAddress, duration });
    this.byAccountAndAddress = databaseLimit(db, { keyPrefix: 'acad', points: config.perAccount, duration });
    // Never refuses (its points are only counted): a count of failures that sets the wait.
    this.byAccount = databaseLimit(db, { keyPrefix: 'acct', points: Number.MAX_SAFE_INTEGER, duration });
    this.slowdown = config.slowdown;
  }

  /**
   * Takes one attempt from each budget, or throws TooManyAttempts; then waits as long as the account's failures
   * from anywhere say. Resolves with the wait, in ms.
   */
  async take(address: string, email: string): Promise<number> {
    const account = accountKey(email);
    await consume(this.byAddress, address);
    await consume(this.byAccountAndAddress, digestKey(account, address));
    const failures = await this.byAccount.usedPoints(account);
    await this.byAccount.consume(account);
    const wait = this.waitAfter(failures);
    if (wait > 0) await this.sleep(wait);
    return wait;
  }

  /** The wait before an attempt on an account with `failures` failures in the window. */
  waitAfter(failures: number): number {
    const { afterFailures, baseMs, maxMs } = this.slowdown;
    if (failures < afterFailures) return 0;
    return Math.min(maxMs, baseMs * 2 ** Math.min(30, failures - afterFailures));
  }

  /** The attempt succeeded: it counts against nothing, and its account-and-address count starts afresh. */
  async succeeded(address: string, email: string): Promise<void> {
    const account = accountKey(email);
    await this.byAddress.reward(address, 1);
    await this.byAccount.reward(account, 1);
    await this.byAccountAndAddress.delete(digestKey(account, address));
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

/**
 * An account's key: a digest of its lower-cased email, the same for an account that exists and one that does
 * not (keys are varchar(255); an email may be 254 characters of any script). Also what security events name.
 */
export const accountKey = (email: string) => digestKey(email.normalize('NFKC').toLowerCase());

/** A refused sign-up: wait this long before the next. */
export class TooManySignUps extends TooManyAttempts {
  constructor(retryAfterSeconds: number) {
    super(retryAfterSeconds);
    const minutes = Math.ceil(retryAfterSeconds / 60);
    this.message = `Too many sign-ups from your network. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`;
  }
}

/**
 * Sign-ups per client address, in the database like the sign-in limits (every process shares the count):
 * `perAddress` well-formed sign-ups per window, made or refused, then 429. A person makes one account; a
 * household or an office behind one address a few; a script asking which addresses have an account (a taken
 * one answers 409, see docs/security.md) or making accounts in bulk is stopped after `perAddress`.
 */
export class SignUpLimits {
  private readonly byAddress: DatabaseLimit;

  constructor(db: Kysely<Database>, config: ApiConfig['signUpLimits']) {
    this.byAddress = databaseLimit(db, {
      keyPrefix: 'sgup',
      points: config.perAddress,
      duration: config.windowSeconds,
    });
  }

  async take(address: string): Promise<void> {
    try {
      await this.byAddress.consume(address);
    } catch (error) {
      if (error instanceof RateLimited) throw new TooManySignUps(error.retryAfterSeconds);
      throw error;
    }
  }
}
