/**
 * What signing in, signing out and saving the profile do, whoever asks: the JSON routes of api/plugin.ts
 * (`POST`/`DELETE /api/session`, `PATCH /api/profile`) and the HTML form routes of api/forms.ts (`POST /login`,
 * `/logout`, `/profile`) are two thin adapters over these functions. One origin check, one set of rate limits,
 * one password check, one session rotation: a form cannot be a way around any of them.
 */
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import {
  DISPLAY_NAME_INPUT_MAX,
  DISPLAY_NAME_LENGTH_MESSAGE,
  DISPLAY_NAME_MAX,
  displayNameLength,
  EMAIL_MAX,
  PASSWORD_MAX,
} from '../core/limits.ts';
import { limitKey } from './clientAddress.ts';
import type { ApiConfig } from './config.ts';
import type { Database, User } from './database/schema.ts';
import { HttpError } from './errors.ts';
import { type ApiLog, loggablePath, securityLine } from './logSafe.ts';
import { Passwords } from './passwords.ts';
import { Sessions } from './sessions.ts';
import { accountKey, SignInLimits, TooManyAttempts } from './signInLimits.ts';
import type { PublicUser } from './types.ts';

export { DISPLAY_NAME_INPUT_MAX, EMAIL_MAX, PASSWORD_MAX } from '../core/limits.ts';

export const CREDENTIALS_REQUIRED = 'Email and password are required.';
export const SIGN_IN_FIRST = 'You need to sign in first.';
export const CROSS_ORIGIN = 'This request must come from the app itself (cross-origin requests are refused).';

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
  const security = securityLine(options.log ?? console);

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
      if (password.length > PASSWORD_MAX) {
        throw new HttpError(400, `Password must be at most ${PASSWORD_MAX} characters.`);
      }
      checkText(email, 'Email');
      const account = accountKey(email);
      try {
        await limits.take(input.address, email);
      } catch (error) {
        if (!(error instanceof TooManyAttempts)) throw error;
        security({ event: 'sign-in.refused', address: input.address, account });
        throw new HttpError(429, error.message, { 'retry-after': String(error.retryAfterSeconds) });
      }
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where(sql`lower(email)`, '=', sql`lower(${email})`)
        .executeTakeFirst();
      const check = await passwords.check(password, user?.passwordHash);
      if (!user || !check.ok) {
        security({ event: 'sign-in.failed', address: input.address, account });
        throw new HttpError(401, 'Incorrect email or password');
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
      }
      await limits.succeeded(input.address, email);
      const token = await sessions.start(user.id, input.previousToken);
      return { user, token };
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
        throw new HttpError(400, DISPLAY_NAME_LENGTH_MESSAGE);
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

function validateDisplayName(value: string): string {
  const name = value.trim();
  const length = displayNameLength(name);
  if (length < 1 || length > DISPLAY_NAME_MAX) {
    throw new HttpError(400, DISPLAY_NAME_LENGTH_MESSAGE);
  }
  checkText(name, 'Display name');
  // Shown to others beside other text: a direction override would reorder what follows it, and a zero-width
  // space makes two names that look the same. Joiners stay: emoji sequences and several scripts need them.
  if (/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff\u180e]/u.test(name)) {
    throw new HttpError(
      400,
      'Display name must not contain invisible formatting characters (direction marks or zero-width spaces).',
    );
  }
  return name;
}

/** PostgreSQL text holds neither NUL nor half a surrogate pair; neither belongs in a name or an email. */
export function checkText(value: string, label: string): void {
  if (/\p{Cc}/u.test(value)) throw new HttpError(400, `${label} must not contain control characters.`);
  if (/\p{Cs}/u.test(value)) throw new HttpError(400, `${label} must be well-formed Unicode text.`);
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
