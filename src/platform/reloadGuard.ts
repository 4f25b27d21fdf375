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
  // Stryker disable next-line ConditionalExpression: Without the early return, a missing value (`getItem` gives null) goes to `JSON.parse(null)`, which coerces null to the text "null" and returns null; `[null]` is then filtered out by `record !== null`, so readRecords returns [] either way. The line only spares the parse. Checked: tests/platform/reloadGuard.test.ts grants on empty storage with and without the mutant.
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.filter(
      (record): record is ReloadRecord =>
        // Stryker disable next-line ConditionalExpression: The other conditions already reject every JSON value that is not an object: a string, number or boolean has no `path` property of type string (String/Number/Boolean prototypes have none), and null is rejected by `record !== null`, so `typeof record.path === 'string'` is false for all of them. tests/platform/reloadGuard.test.ts ("ignores entries it did not write") stores 7 and 'text' in the list: both are dropped with and without the check. It remains as the type guard TypeScript needs before reading `record.path`.
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
  // Stryker disable next-line ConditionalExpression: With null storage the next line `storage.getItem(key)` throws a TypeError inside the try, whose catch returns 'unavailable': the same answer, with no write. The explicit check says the contract instead of relying on the exception. tests/platform/reloadGuard.test.ts ('never reloads without storage that works') passes null and gets 'unavailable' with and without the mutant.
  if (storage === null) return 'unavailable';
  try {
    const records = readRecords(storage.getItem(key), now, cap);
    if (records.some((record) => record.path === path && record.expires > now)) return 'denied';
    // Stryker disable next-line ConditionalExpression: The mutant differs only for a record without `at` (the reference's shape), and for it the next operand `undefined > now - cap.windowMs` is false anyway (undefined converts to NaN), so such a record is not counted towards the cap either way. The check states that records without `at` never count. Checked with the single-record test in tests/platform/reloadGuard.test.ts ({ path, expires } without at).
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
