import { hash, parseOptions, verify } from '@node-rs/argon2';
import pLimit, { type LimitFunction } from 'p-limit';

/** argon2id cost, stored in every hash it makes (PHC string), so changing it never breaks old hashes. */
export interface Argon2Params {
  /** KiB of memory per hash. */
  memoryCost: number;
  /** Passes over that memory. */
  timeCost: number;
  parallelism: number;
}

/** OWASP's Password Storage Cheat Sheet minimum for argon2id: 19 MiB, 2 passes, 1 lane. */
export const OWASP_ARGON2ID: Argon2Params = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

// @node-rs/argon2's Algorithm is an ambient const enum, which isolated modules cannot read.
const ARGON2ID = 2;

export interface PasswordCheck {
  ok: boolean;
  /** The stored hash is weaker than today's parameters: store a new one. */
  needsRehash: boolean;
}

/**
 * Hashes and checks passwords, argon2id only. The work runs on libuv's thread pool (the native binding is
 * asynchronous), never on the event loop; `maxConcurrent` caps how many hashes run
 * at once so a burst of sign-ins queues here instead of filling the pool that file I/O and DNS share.
 */
export class Passwords {
  private readonly params: Argon2Params;
  private readonly limit: LimitFunction;
  private decoy: Promise<string> | undefined;

  constructor(params: Argon2Params = OWASP_ARGON2ID, maxConcurrent = 2) {
    this.params = params;
    this.limit = pLimit(maxConcurrent);
  }

  hash(password: string): Promise<string> {
    return this.limit(() => hash(password.normalize('NFC'), { ...this.params, algorithm: ARGON2ID }));
  }

  /**
   * `stored` undefined means no such account. Every refusal costs one argon2id verify: with no account, or a
   * stored hash that is not a well-formed argon2id one (matching nothing), a throwaway hash made with today's
   * parameters is checked instead, so the time taken tells neither which accounts exist nor how they are stored.
   */
  async check(password: string, stored: string | undefined): Promise<PasswordCheck> {
    const normalized = password.normalize('NFC');
    if (stored?.startsWith('$argon2id$')) {
      try {
        const ok = await this.limit(() => verify(stored, normalized));
        return { ok, needsRehash: ok && this.isWeaker(stored) };
      } catch {
        // Malformed: it matches nothing, and is refused in the same time as the rest below.
      }
    }
    // Stryker disable next-line StringLiteral: the decoy check answers `ok: false` whatever `verify` says, so what the throwaway hash is of changes nothing but its bytes; that a real argon2id hash is verified is tested in tests/api/errors.test.ts.
    this.decoy ??= this.hash('decoy password that never matches');
    const decoy = await this.decoy;
    await this.limit(() => verify(decoy, normalized));
    return { ok: false, needsRehash: false };
  }

  private isWeaker(stored: string): boolean {
    const used = parseOptions(stored);
    return (
      used.memoryCost < this.params.memoryCost ||
      used.timeCost < this.params.timeCost ||
      used.parallelism !== this.params.parallelism
    );
  }
}

/** ASVS 5.0 6.2.1: at least 8 characters. */
export const PASSWORD_MIN = 8;
/** ASVS 5.0 6.2.1's recommendation, said beside the field. */
export const PASSWORD_RECOMMENDED = 15;
/**
 * The longest new password. ASVS 5.0 6.2.9 asks that at least 64 be allowed; 128 leaves room for any passphrase
 * and bounds what one argon2id hash reads (the hash's cost is its memory and passes, but a request of 1 MiB of
 * password is still work for nothing). Sign-in reads up to SIGN_IN_PASSWORD_MAX, for passwords set elsewhere.
 */
export const PASSWORD_MAX = 128;

/** The length a person counts: Unicode code points of the NFC form, the form that is hashed. */
export function passwordLength(password: string): number {
  return [...password.normalize('NFC')].length;
}

let common: ReadonlySet<string> | undefined;

/**
 * ASVS 5.0 6.2.4: a password in the list of common passwords that @zxcvbn-ts/language-common ships (about 49,000,
 * drawn from breach corpora; compared in lower case, as the list is) is refused. Loaded once, on first use.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  if (!common) {
    const { dictionary } = await import('@zxcvbn-ts/language-common');
    common = new Set(dictionary['passwords-common'] as string[]);
  }
  return common.has(password.normalize('NFC').toLowerCase());
}

/**
 * What is wrong with a new password, or undefined: its length (ASVS 5.0 6.2.1, 6.2.9) and the common list
 * (6.2.4). Any Unicode is allowed and no composition rule applies (6.2.5); only text that is not text is refused,
 * NUL and half a surrogate pair, which would be hashed as something else than what was typed.
 */
export async function newPasswordProblem(password: string): Promise<string | undefined> {
  if (password === '') return 'Enter a password.';
  if (/[\0\p{Cs}]/u.test(password)) return 'Password must not contain NUL or broken Unicode characters.';
  const length = passwordLength(password);
  if (length < PASSWORD_MIN)
    return `Password must be at least ${PASSWORD_MIN} characters (${PASSWORD_RECOMMENDED} or more is better).`;
  if (length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters.`;
  if (await isCommonPassword(password))
    return 'This password is in a list of common or breached passwords. Choose another one.';
  return undefined;
}
