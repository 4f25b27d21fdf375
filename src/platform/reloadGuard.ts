import type { ReloadClaim } from '../../machines/app/app.machine';

interface ReloadRecord {
  readonly path: string;
  /** Until then, this path is not reloaded again. */
  readonly expires: number;
  /** When the reload happened; counts towards the session's cap. Absent in the reference's records. */
  readonly at?: number;
}

/** The overall cap: at most `max` reloads in any `windowMs`, whatever the paths. */
export interface ReloadCap {
  readonly max: number;
  readonly windowMs: number;
}

function readRecords(raw: string | null, now: number, cap: ReloadCap): ReloadRecord[] {
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
        (record.expires > now || (typeof record.at === 'number' && record.at > now - cap.windowMs)),
    );
  } catch {
    // A corrupt value is no record of a reload; it is rewritten below.
    return [];
  }
}

/**
 * May the app reload `path` now? At most once per window per path, and at most `cap.max` times in
 * `cap.windowMs` overall, remembered in sessionStorage as `[{ path, expires, at }]`. The per-path window
 * alone let a reload cycle slower than it (a slow link, stale HTML) loop forever; the cap ends that. A list,
 * unlike a single record, also stops two paths that fail in turn from reloading each other forever.
 * Without working storage there is no memory, so no reload.
 */
export function claimReload(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
  key: string,
  path: string,
  now: number,
  windowMs: number,
  cap: ReloadCap,
): ReloadClaim {
  if (storage === null) return 'unavailable';
  try {
    const records = readRecords(storage.getItem(key), now, cap);
    if (records.some((record) => record.path === path && record.expires > now)) return 'denied';
    const recent = records.filter((record) => record.at !== undefined && record.at > now - cap.windowMs);
    if (recent.length >= cap.max) return 'denied';
    storage.setItem(key, JSON.stringify([...records, { path, expires: now + windowMs, at: now }]));
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
