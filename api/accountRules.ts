/**
 * What an account is made of and how its fields are checked: the one way an account is made (createAccount),
 * for a person's sign-up (./accounts.ts) and the demo data (./database/demoData.ts) alike. Apart from
 * ./accounts.ts so that the database's demo step can use it without the API's configuration.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';

export { DISPLAY_NAME_LENGTH_MESSAGE } from '../core/limits.ts';

import {
  DISPLAY_NAME_INPUT_MAX,
  DISPLAY_NAME_LENGTH_MESSAGE,
  DISPLAY_NAME_MAX,
  displayNameLength,
  EMAIL_MAX,
  PASSWORD_MAX,
} from '../core/limits.ts';
import type { Database, User } from './database/schema.ts';
import { HttpError } from './errors.ts';
import { newPasswordProblem, Passwords } from './passwords.ts';

export { DISPLAY_NAME_INPUT_MAX, EMAIL_MAX };
/**
 * What a sign-in reads of a password: new passwords stop at passwords.ts's PASSWORD_MAX (128), but an account
 * may hold one set before that limit. Beyond this it is an attack on the hashing.
 */
export const SIGN_IN_PASSWORD_MAX = PASSWORD_MAX;

export const EMAIL_TAKEN = 'An account with this email already exists. Sign in instead.';
export const WRONG_PASSWORD = 'That is not your current password.';

/** The form fields of the account forms, as the JSON bodies and the HTML forms name them. */
export type AccountField = 'email' | 'displayName' | 'password' | 'currentPassword' | 'newPassword';

export const fieldError = (field: AccountField, message: string) => new HttpError(400, message, {}, field);

/**
 * The key an email is compared and unique by (the `users_email_key` index of migration 0007): NFKC, so that
 * full-width `ｄｅｍｏ@example.com` is `demo@example.com`, then lower case.
 */
export const emailKey = (email: string): string => email.normalize('NFKC').toLowerCase();

/**
 * A well-formed address of the shape `local@domain.tld`, within RFC 5321's length, without control, direction
 * or zero-width characters: the email to store (trimmed, NFKC). Whether it receives mail is not known here (the
 * product sends none).
 */
export function validateEmail(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw fieldError('email', 'Enter your email address.');
  if (raw.length > EMAIL_MAX) throw fieldError('email', `Email must be at most ${EMAIL_MAX} characters.`);
  const email = raw.trim().normalize('NFKC');
  checkText(email, 'Email', 'email');
  if (INVISIBLE.test(email) || email.length > EMAIL_MAX || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/u.test(email)) {
    throw fieldError('email', 'Enter an email address like name@example.com.');
  }
  return email;
}

/** A new password as passwords.ts's policy has it, or a 400 on `field`. */
export async function validateNewPassword(raw: unknown, field: AccountField): Promise<string> {
  const password = typeof raw === 'string' ? raw : '';
  // Bounded before the policy reads it (the policy normalises and counts).
  if (password.length > SIGN_IN_PASSWORD_MAX)
    throw fieldError(field, 'Password must be at most 128 characters.');
  const problem = await newPasswordProblem(password);
  if (problem) throw fieldError(field, problem);
  return password;
}

export interface NewAccount {
  readonly email: unknown;
  readonly displayName: unknown;
  readonly password: unknown;
}

/**
 * Checks a sign-up's fields and writes the account: the one way an account is made, by a person's sign-up and by
 * the demo data (./database/demoData.ts) alike. `id` is for the demo accounts, whose campaigns name them; a
 * person's account gets a random one. The email is unique by the database's index: two sign-ups of one address
 * at once both insert, one wins and the other gets a 409 (never a check and then an insert). Pass a transaction
 * to write more in the same one (a session, the demo campaigns).
 */
export async function createAccount(
  db: Kysely<Database> | Transaction<Database>,
  input: NewAccount & { readonly id?: string },
  passwords: Passwords = defaultPasswords(),
): Promise<User> {
  const fields = await checkNewAccount(input);
  const passwordHash = await passwords.hash(fields.password);
  try {
    return await db
      .insertInto('users')
      .values({
        id: input.id ?? randomUUID(),
        email: fields.email,
        emailKey: emailKey(fields.email),
        displayName: fields.displayName,
        passwordHash,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, EMAIL_TAKEN, {}, 'email');
    throw error;
  }
}

/** The fields of a sign-up, checked in the order of the form (the first wrong one is the one reported). */
export async function checkNewAccount(input: NewAccount) {
  const email = validateEmail(input.email);
  if (typeof input.displayName !== 'string' || input.displayName.length > DISPLAY_NAME_INPUT_MAX) {
    throw fieldError('displayName', DISPLAY_NAME_LENGTH_MESSAGE);
  }
  const displayName = validateDisplayName(input.displayName);
  const password = await validateNewPassword(input.password, 'password');
  return { email, displayName, password };
}

let sharedPasswords: Passwords | undefined;
function defaultPasswords(): Passwords {
  sharedPasswords ??= new Passwords();
  return sharedPasswords;
}

/** PostgreSQL's unique_violation, as node-postgres and PGlite both report it. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * Direction marks and overrides, and zero-width spaces: shown beside other text, an override reorders what
 * follows it, and a zero-width space makes two names that look the same. Joiners stay: emoji sequences and
 * several scripts need them.
 */
const INVISIBLE = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff\u180e]/u;

/** A password typed to prove who one is: any non-empty text (its match is what counts). */
export function requiredPassword(raw: unknown, field: AccountField): string {
  if (typeof raw !== 'string' || raw === '') throw fieldError(field, 'Enter your password.');
  if (raw.length > SIGN_IN_PASSWORD_MAX) throw fieldError(field, WRONG_PASSWORD);
  return raw;
}

export function validateDisplayName(value: string): string {
  const name = value.trim();
  const length = displayNameLength(name);
  if (length < 1 || length > DISPLAY_NAME_MAX) {
    throw fieldError('displayName', DISPLAY_NAME_LENGTH_MESSAGE);
  }
  checkText(name, 'Display name', 'displayName');
  if (INVISIBLE.test(name)) {
    throw fieldError(
      'displayName',
      'Display name must not contain invisible formatting characters (direction marks or zero-width spaces).',
    );
  }
  return name;
}

/** PostgreSQL text holds neither NUL nor half a surrogate pair; neither belongs in a name or an email. */
export function checkText(value: string, label: string, field?: AccountField): void {
  if (/\p{Cc}/u.test(value))
    throw new HttpError(400, `${label} must not contain control characters.`, {}, field);
  if (/\p{Cs}/u.test(value))
    throw new HttpError(400, `${label} must be well-formed Unicode text.`, {}, field);
}
