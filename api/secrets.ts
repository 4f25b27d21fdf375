/**
 * Operator secrets (REPORTS_TOKEN, METRICS_TOKEN; their length is checked where they are read, ./environment.ts)
 * are compared in constant time
 * whatever the lengths, so neither the time nor the length of a wrong guess says anything about the secret.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Both sides are digested under a key of this process: equal-length inputs for timingSafeEqual, always.
const key = randomBytes(32);
const digest = (text: string) => createHmac('sha256', key).update(text).digest();

export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header, or '' when there is none. */
export function bearerToken(header: string | undefined): string {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
}
