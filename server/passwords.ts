import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// Stored as `scrypt$<saltHex>$<hashHex>` with node's default cost (N=16384,
// r=8, p=1): slow enough to be honest, fast enough for a dev server and tests.
const PREFIX = 'scrypt';
const SALT_BYTES = 16;
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, keyBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyBytes, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES);
  return `${PREFIX}$${salt.toString('hex')}$${key.toString('hex')}`;
}

// Unknown emails are checked against this throwaway hash so that a wrong email
// takes as long as a wrong password and does not reveal which accounts exist.
let decoyHash: Promise<string> | undefined;

/** `stored` may be undefined (no such user); the answer is then always false. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (stored === undefined) {
    decoyHash ??= hashPassword('decoy password');
    await verifyPassword(password, await decoyHash);
    return false;
  }
  const [prefix, saltHex, keyHex, ...rest] = stored.split('$');
  if (prefix !== PREFIX || saltHex === undefined || keyHex === undefined || rest.length > 0) return false;
  const expected = Buffer.from(keyHex, 'hex');
  if (expected.length === 0) return false;
  const actual = await derive(password, Buffer.from(saltHex, 'hex'), expected.length);
  return timingSafeEqual(actual, expected);
}
