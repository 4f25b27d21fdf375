/**
 * Where the product API is, for the browser's client (src/config.ts) and for the build's session preload
 * (build/apiPreload.ts): `VITE_API_BASE_URL` when it says anything, else the same origin's `/api`. Both must
 * name the same URL, or the preloaded response is not the one the client asks for and it asks twice.
 */
export const DEFAULT_API_BASE = '/api';

/** The API base a `VITE_API_BASE_URL` value gives: trimmed, without trailing slashes, `/api` when blank. */
export function apiBaseFrom(value: unknown): string {
  const given = typeof value === 'string' ? value.trim() : '';
  return given === '' ? DEFAULT_API_BASE : given.replace(/\/+$/, '');
}
