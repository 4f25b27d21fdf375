import { scrypt, timingSafeEqual } from 'node:crypto';
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
  /** The stored hash is weaker than today's parameters (or legacy scrypt): store a new one. */
  needsRehash: boolean;
}

/**
 * Hashes and checks passwords. The work runs on libuv's thread pool (the native binding and node's
 * scrypt are both asynchronous), never on the event loop; `maxConcurrent` caps how many hashes run
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
   * `stored` undefined means no such account: a throwaway hash is checked instead, so a wrong email
   * costs as much time as a wrong password and does not tell which accounts exist.
   */
  async check(password: string, stored: string | undefined): Promise<PasswordCheck> {
    if (stored === undefined) {
      this.decoy ??= this.hash('decoy password that never matches');
      await this.limit(async () => verify(await this.decoy!, password.normalize('NFC')));
      return { ok: false, needsRehash: false };
    }
    if (stored.startsWith('scrypt$')) {
      return { ok: await this.limit(() => verifyLegacyScrypt(password, stored)), needsRehash: true };
    }
    if (!stored.startsWith('$argon2')) return { ok: false, needsRehash: false };
    let ok: boolean;
    try {
      ok = await this.limit(() => verify(stored, password.normalize('NFC')));
    } catch {
      // A malformed stored hash matches nothing.
      return { ok: false, needsRehash: false };
    }
    return { ok, needsRehash: ok && this.isWeaker(stored) };
  }

  private isWeaker(stored: string): boolean {
    const used = parseOptions(stored);
    return (
      used.algorithm !== ARGON2ID ||
      used.memoryCost < this.params.memoryCost ||
      used.timeCost < this.params.timeCost ||
      used.parallelism !== this.params.parallelism
    );
  }
}

/**
 * The seed's original format, `scrypt$<saltHex>$<keyHex>` at node's default cost (N=2^14, r=8, p=1),
 * below OWASP's minimum: kept only so those accounts can sign in once and be upgraded.
 */
function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, saltHex, keyHex, ...rest] = stored.split('$');
  if (saltHex === undefined || keyHex === undefined || rest.length > 0) return Promise.resolve(false);
  const expected = Buffer.from(keyHex, 'hex');
  if (expected.length === 0) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), Buffer.from(saltHex, 'hex'), expected.length, (error, key) => {
      if (error) reject(error);
      else resolve(timingSafeEqual(key, expected));
    });
  });
}
