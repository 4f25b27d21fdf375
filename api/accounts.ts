/**
 * What signing up, in and out, saving the profile, changing the password and deleting the account do, whoever
 * asks: the JSON routes of api/plugin.ts (`/api/session`, `/api/account`, `/api/profile`…) and the HTML form
 * routes of api/routes/forms.ts (`POST /login`, `/logout`, `/profile`…) are two thin adapters over these
 * functions. One origin check, one set of rate limits, one password check, one session rotation: a form cannot
 * be a way around any of them. docs/accounts.md says what each does.
 */

import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  checkNewAccount,
  checkText,
  createAccount,
  DISPLAY_NAME_INPUT_MAX,
  DISPLAY_NAME_LENGTH_MESSAGE,
  EMAIL_MAX,
  emailKey,
  fieldError,
  type NewAccount,
  requiredPassword,
  SIGN_IN_PASSWORD_MAX,
  validateDisplayName,
  validateNewPassword,
  WRONG_PASSWORD,
} from './accountRules.ts';
import { limitKey } from './clientAddress.ts';
import type { ApiConfig } from './config.ts';
import type { Database, User } from './database/schema.ts';
import { HttpError } from './errors.ts';
import { type ApiLog, loggablePath, securityLine } from './logSafe.ts';
import { Passwords } from './passwords.ts';
import { Sessions } from './sessions.ts';
import { accountKey, SignInLimits, SignUpLimits, TooManyAttempts } from './signInLimits.ts';
import type { PublicUser } from './types.ts';

export { PASSWORD_MAX } from '../core/limits.ts';
export {
  type AccountField,
  checkText,
  createAccount,
  DISPLAY_NAME_INPUT_MAX,
  EMAIL_MAX,
  EMAIL_TAKEN,
  emailKey,
  isUniqueViolation,
  SIGN_IN_PASSWORD_MAX,
  validateEmail,
  WRONG_PASSWORD,
} from './accountRules.ts';

export const CREDENTIALS_REQUIRED = 'Email and password are required.';
export const SIGN_IN_FIRST = 'You need to sign in first.';
export const CROSS_ORIGIN = 'This request must come from the app itself (cross-origin requests are refused).';

/**
 * Campaign statuses that end with the account (drafts, and campaigns that are over). Any other (one that is
 * public and not over: active, paused, scheduled, live…) keeps the account: its organiser cancels it first.
 */
export const DELETABLE_CAMPAIGN_STATUSES: readonly string[] = ['draft', 'completed', 'ended', 'cancelled'];
export const RUNNING_CAMPAIGNS =
  'You still run a public campaign. Cancel it or let it end, then delete your account.';

export interface SignInInput {
  readonly email: unknown;
  readonly password: unknown;
  /** The client's address, for the per-address limit. */
  readonly address: string;
  /** The session cookie the request came with: it ends in the same transaction (no fixation). */
  readonly previousToken: string | undefined;
}

export type Accounts = ReturnType<typeof createAccounts>;

export function createAccounts(options: {
  db: Kysely<Database>;
  config: ApiConfig;
  now?: () => number;
  /** Where security events go (a refused sign-in or origin); default: a JSON line on the console. */
  log?: ApiLog;
  /** How the slowdown waits (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
}) {
  const { db, config } = options;
  const now = options.now ?? Date.now;
  const sessions = new Sessions(db, config.sessions, now);
  const passwords = new Passwords(config.passwords.argon2, config.passwords.maxConcurrent);
  const limits = new SignInLimits(db, config.signInLimits, options.sleep);
  const signUpLimits = new SignUpLimits(db, config.signUpLimits);
  const security = securityLine(options.log ?? console);

  /** One attempt at an account's password from the sign-in budgets (./signInLimits.ts), or a 429. */
  async function takeSignInAttempt(address: string, email: string): Promise<void> {
    try {
      await limits.take(address, email);
    } catch (error) {
      if (!(error instanceof TooManyAttempts)) throw error;
      security({ event: 'sign-in.refused', address, account: accountKey(email) });
      throw new HttpError(429, error.message, { 'retry-after': String(error.retryAfterSeconds) });
    }
  }

  /** Checks a password against an account (or a decoy: the same time either way), upgrading an old hash. */
  async function passwordMatches(
    user: User | undefined,
    password: string,
    address: string,
    email: string,
  ): Promise<boolean> {
    const check = await passwords.check(password, user?.passwordHash);
    if (!user || !check.ok) {
      security({ event: 'sign-in.failed', address, account: accountKey(email) });
      return false;
    }
    if (check.needsRehash) {
      const upgraded = await passwords.hash(password);
      // Only over the hash just checked: a password changed meanwhile wins.
      await db
        .updateTable('users')
        .set({ passwordHash: upgraded })
        .where('id', '=', user.id)
        .where('passwordHash', '=', user.passwordHash)
        .execute();
      user.passwordHash = upgraded;
    }
    return true;
  }

  async function signedIn(token: string | undefined): Promise<User> {
    const user = await sessions.user(token);
    if (!user) throw new HttpError(401, SIGN_IN_FIRST);
    return user;
  }

  return {
    sessions,
    cookieName: config.secureCookie ? '__Host-sid' : 'sid',
    sessionSeconds: config.sessions.absoluteSeconds,

    /** Throws a 403 unless the request comes from a page of this site (see isSameOrigin). */
    checkOrigin(request: FastifyRequest): void {
      if (isSameOrigin(request, config.publicOrigin)) return;
      const origin = request.headers.origin;
      security({
        event: 'origin.refused',
        address: limitKey(request.ip),
        ...(origin ? { origin: loggablePath(origin) } : {}),
      });
      throw new HttpError(403, CROSS_ORIGIN);
    },

    /** Checks the password and starts a fresh session: the user and the new session token. */
    async signIn(input: SignInInput): Promise<{ user: User; token: string }> {
      const { email: rawEmail, password } = input;
      if (typeof rawEmail !== 'string' || typeof password !== 'string' || password === '') {
        throw new HttpError(400, CREDENTIALS_REQUIRED);
      }
      const email = rawEmail.trim();
      if (email === '') throw new HttpError(400, CREDENTIALS_REQUIRED);
      if (rawEmail.length > EMAIL_MAX) {
        throw new HttpError(400, `Email must be at most ${EMAIL_MAX} characters.`);
      }
      if (password.length > SIGN_IN_PASSWORD_MAX) {
        throw new HttpError(
          400,
          `Password must be at most ${SIGN_IN_PASSWORD_MAX} characters.`,
          {},
          'password',
        );
      }
      checkText(email, 'Email');
      await takeSignInAttempt(input.address, email);
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('emailKey', '=', emailKey(email))
        .executeTakeFirst();
      const matched = await passwordMatches(user, password, input.address, email);
      if (!user || !matched) throw new HttpError(401, 'Incorrect email or password');
      await limits.succeeded(input.address, email);
      const token = await sessions.start(user.id, input.previousToken);
      return { user, token };
    },

    /**
     * Makes an account (createAccount) and signs it in with a fresh session, in one transaction: an account is
     * never left without the session its sign-up asked for. Limited per client address (SignUpLimits) once the
     * fields are well-formed: a typo costs nothing, each try at an address does.
     */
    async signUp(input: NewAccount & { address: string; previousToken: string | undefined }) {
      await checkNewAccount(input);
      try {
        await signUpLimits.take(input.address);
      } catch (error) {
        if (!(error instanceof TooManyAttempts)) throw error;
        security({ event: 'sign-up.refused', address: input.address });
        throw new HttpError(429, error.message, { 'retry-after': String(error.retryAfterSeconds) });
      }
      try {
        return await db.transaction().execute(async (tx) => {
          const user = await createAccount(tx, input, passwords);
          const token = await sessions.start(user.id, input.previousToken, tx);
          return { user, token };
        });
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 409) {
          security({
            event: 'sign-up.taken',
            address: input.address,
            account: accountKey(emailKey(String(input.email).trim())),
          });
        }
        throw error;
      }
    },

    /**
     * Changes the session's user's password: the current one must match (under the sign-in limits, so a session
     * left open is no way to guess it), the new one passes the policy. Every other session of the account ends
     * in the same transaction; this one stays.
     */
    async changePassword(input: {
      token: string | undefined;
      currentPassword: unknown;
      newPassword: unknown;
      address: string;
    }): Promise<User> {
      const user = await signedIn(input.token);
      const current = requiredPassword(input.currentPassword, 'currentPassword');
      const next = await validateNewPassword(input.newPassword, 'newPassword');
      await takeSignInAttempt(input.address, user.email);
      if (!(await passwordMatches(user, current, input.address, user.email))) {
        throw new HttpError(400, WRONG_PASSWORD, {}, 'currentPassword');
      }
      await limits.succeeded(input.address, user.email);
      const passwordHash = await passwords.hash(next);
      return db.transaction().execute(async (tx) => {
        // Only over the hash just checked: a change made meanwhile elsewhere wins, and this one is refused.
        const updated = await tx
          .updateTable('users')
          .set({ passwordHash })
          .where('id', '=', user.id)
          .where('passwordHash', '=', user.passwordHash)
          .returningAll()
          .executeTakeFirst();
        if (!updated) throw new HttpError(409, 'Your password was changed meanwhile. Sign in again.');
        await sessions.endOthers(user.id, input.token, tx);
        return updated;
      });
    },

    /**
     * Deletes the session's user's account, the password required (under the sign-in limits): its sessions end
     * (cascade) and its drafts and finished campaigns go with it. Refused (409) while it runs a public campaign
     * that is not over (DELETABLE_CAMPAIGN_STATUSES), checked in the same transaction as the delete.
     */
    async deleteAccount(input: {
      token: string | undefined;
      password: unknown;
      address: string;
    }): Promise<void> {
      const user = await signedIn(input.token);
      const password = requiredPassword(input.password, 'password');
      await takeSignInAttempt(input.address, user.email);
      if (!(await passwordMatches(user, password, input.address, user.email))) {
        throw new HttpError(400, WRONG_PASSWORD, {}, 'password');
      }
      await limits.succeeded(input.address, user.email);
      await db.transaction().execute(async (tx) => {
        // Locks the account's row: a campaign published meanwhile (its write checks the owner) waits for this.
        const locked = await tx
          .selectFrom('users')
          .select('id')
          .where('id', '=', user.id)
          .forUpdate()
          .executeTakeFirst();
        if (!locked) throw new HttpError(401, SIGN_IN_FIRST);
        const running = await tx
          .selectFrom('campaigns')
          .select('id')
          .where('ownerId', '=', user.id)
          .where('status', 'not in', DELETABLE_CAMPAIGN_STATUSES as never[])
          .limit(1)
          .executeTakeFirst();
        if (running) throw new HttpError(409, RUNNING_CAMPAIGNS);
        await tx.deleteFrom('campaigns').where('ownerId', '=', user.id).execute();
        // Its sessions go with it (on delete cascade).
        await tx.deleteFrom('users').where('id', '=', user.id).execute();
      });
      security({ event: 'account.deleted', address: input.address, account: accountKey(user.email) });
    },

    async signOut(token: string | undefined): Promise<void> {
      await sessions.end(token);
    },

    /** Saves the display name of the session's user; a 401 when the session has ended. */
    async saveProfile(token: string | undefined, rawName: unknown): Promise<User> {
      if (typeof rawName !== 'string') throw new HttpError(400, 'Display name is required and must be text.');
      // Stryker disable next-line ConditionalExpression: in every answer: a name over 1,000 UTF-16 units is also over 60 code points once trimmed, so `validateDisplayName` refuses it with the same 400 and message (tested: tests/api/forms/ sends 1,001 characters and expects that message). This bound only saves spreading a long string into code points; the body limit (64 KiB) bounds that work anyway.
      // Stryker disable next-line EqualityOperator: a name of exactly 1,000 units is refused either way, here or by `validateDisplayName` (over 60 characters), with the same 400 and message.
      if (rawName.length > DISPLAY_NAME_INPUT_MAX) {
        throw fieldError('displayName', DISPLAY_NAME_LENGTH_MESSAGE);
      }
      const displayName = validateDisplayName(rawName);
      // One statement: the session is checked in the same write, so a sign-out in between wins.
      const updated = await db
        .updateTable('users')
        .set({ displayName })
        .where('id', '=', sessions.userIdOf(token))
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new HttpError(401, SIGN_IN_FIRST);
      return updated;
    },
  };
}

export function publicUser(user: User): PublicUser {
  return { id: user.id, email: user.email, displayName: user.displayName };
}

/**
 * A state-changing request must come from a page of this site. Browsers send `Sec-Fetch-Site` and
 * `Origin` on every such fetch and form post, and a page cannot forge either; a request with neither (curl,
 * an old browser) is refused too, since the cookie alone proves nothing about who sent it. This site is
 * PUBLIC_ORIGIN when set; otherwise the request's own `Host` header, never X-Forwarded-Host (which a client
 * behind a proxy that passes it on could choose).
 */
export function isSameOrigin(request: FastifyRequest, publicOrigin: string | null): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return site === 'same-origin';
  if (publicOrigin !== null) return origin === publicOrigin;
  const host = request.headers.host;
  if (host === undefined) return false;
  try {
    // Through URL on both sides, so a default port (`:80`) written on one side only still matches.
    const given = new URL(origin);
    return given.host === new URL(`${given.protocol}//${host}`).host;
    // Stryker disable next-line BlockStatement: the function then returns undefined for an Origin that is not a URL, and its only callers test it for truth (`if (!isSameOrigin(...))`), so the request is refused with the same 403 (tested: 'refuses state-changing requests from another origin or with no origin at all' sends `Origin: null`, which is not a URL).
  } catch {
    return false;
  }
}
