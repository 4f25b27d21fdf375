import type { ReloadClaim } from '../../machines/app.machine';

interface ReloadRecord {
  readonly path: string;
  readonly expires: number;
}

function readRecords(raw: string | null, now: number): ReloadRecord[] {
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.filter(
      (record): record is ReloadRecord =>
        typeof record === 'object' &&
        record !== null &&
        typeof record.path === 'string' &&
        typeof record.expires === 'number' &&
        record.expires > now,
    );
  } catch {
    // A corrupt value is no record of a reload; it is rewritten below.
    return [];
  }
}

/**
 * May the app reload `path` now? At most once per window per path, remembered in sessionStorage as
 * `[{ path, expires }]`. Unlike a single `{ path, expires }` record, a list also stops two paths that fail
 * in turn from reloading each other forever. Without working storage there is no memory, so no reload.
 */
export function claimReload(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
  key: string,
  path: string,
  now: number,
  windowMs: number,
): ReloadClaim {
  if (storage === null) return 'unavailable';
  try {
    const records = readRecords(storage.getItem(key), now);
    if (records.some((record) => record.path === path)) return 'denied';
    storage.setItem(key, JSON.stringify([...records, { path, expires: now + windowMs }]));
    return 'granted';
  } catch {
    return 'unavailable';
  }
}

/** sessionStorage, or `null` where it is missing or refuses writes (some privacy modes). */
export function sessionStorageOrNull(): Storage | null {
  try {
    const storage = window.sessionStorage;
    const probe = '__campaign-web-probe__';
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}
