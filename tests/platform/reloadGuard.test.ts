import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimReload, sessionStorageOrNull } from '../../src/platform/reloadGuard';

const KEY = 'campaign-web:reload';
const WINDOW = 10_000;
const CAP = { max: 3, windowMs: 300_000 };

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => {
      data.set(key, value);
    },
  };
}

describe('reload guard', () => {
  it('grants one reload per path per window and remembers it as [{ path, expires }]', () => {
    const storage = memoryStorage();
    expect(claimReload(storage, KEY, '/campaign/1', 1_000, WINDOW, CAP)).toBe('granted');
    expect(JSON.parse(storage.data.get(KEY) ?? '')).toEqual([
      { path: '/campaign/1', expires: 11_000, at: 1_000 },
    ]);
    expect(claimReload(storage, KEY, '/campaign/1', 10_999, WINDOW, CAP)).toBe('denied');
    expect(claimReload(storage, KEY, '/campaign/1', 11_001, WINDOW, CAP)).toBe('granted');
  });

  it('caps reloads per session: a cycle slower than the per-path window cannot loop forever (regression)', () => {
    // Each reload of the same path comes 11 s after the last, so the 10 s window alone granted every one.
    const storage = memoryStorage();
    const claims = Array.from({ length: 6 }, (_, i) =>
      claimReload(storage, KEY, '/campaign/1', i * 11_000, WINDOW, CAP),
    );
    expect(claims).toEqual(['granted', 'granted', 'granted', 'denied', 'denied', 'denied']);
    // Once the oldest reload leaves the cap window, one more is allowed.
    expect(claimReload(storage, KEY, '/campaign/1', 300_001, WINDOW, CAP)).toBe('granted');
    // Three in the last five minutes again (11 s, 22 s, 300 s): no fourth, not even for another path.
    expect(claimReload(storage, KEY, '/other', 305_000, WINDOW, CAP)).toBe('denied');
  });

  it('stops two failing paths from reloading each other forever', () => {
    const storage = memoryStorage();
    const sequence = ['/a', '/b', '/a', '/b', '/a'].map((path, i) =>
      claimReload(storage, KEY, path, 1_000 + i * 100, WINDOW, CAP),
    );
    expect(sequence).toEqual(['granted', 'granted', 'denied', 'denied', 'denied']);
  });

  it('repairs a corrupt value instead of failing, and reads the reference single-record shape', () => {
    const corrupt = memoryStorage({ [KEY]: '{not json' });
    expect(claimReload(corrupt, KEY, '/x', 0, WINDOW, CAP)).toBe('granted');
    expect(JSON.parse(corrupt.data.get(KEY) ?? '')).toEqual([{ path: '/x', expires: WINDOW, at: 0 }]);
    const single = memoryStorage({ [KEY]: JSON.stringify({ path: '/x', expires: 5_000 }) });
    expect(claimReload(single, KEY, '/x', 1_000, WINDOW, CAP)).toBe('denied');
  });

  it('never reloads without storage that works', () => {
    expect(claimReload(null, KEY, '/x', 0, WINDOW, CAP)).toBe('unavailable');
    const throwing = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
    };
    expect(claimReload(throwing, KEY, '/x', 0, WINDOW, CAP)).toBe('unavailable');
  });

  it('lets a path reload again at the very moment its window ends', () => {
    const storage = memoryStorage();
    claimReload(storage, KEY, '/campaign/1', 1_000, WINDOW, CAP);
    expect(claimReload(storage, KEY, '/campaign/1', 11_000, WINDOW, CAP)).toBe('granted');
  });

  it('counts towards the cap only the reloads strictly inside its window', () => {
    // A cap window shorter than the per-path window: the records still block their paths, but no longer count.
    const cap = { max: 2, windowMs: 5_000 };
    const storage = memoryStorage();
    claimReload(storage, KEY, '/a', 0, WINDOW, cap);
    claimReload(storage, KEY, '/b', 0, WINDOW, cap);
    expect(claimReload(storage, KEY, '/c', 4_999, WINDOW, cap)).toBe('denied');
    expect(claimReload(storage, KEY, '/c', 5_000, WINDOW, cap)).toBe('granted');
    expect(claimReload(storage, KEY, '/a', 5_000, WINDOW, cap)).toBe('denied');
  });

  it('forgets the records that neither block a path nor count towards the cap', () => {
    const storage = memoryStorage({
      [KEY]: JSON.stringify([
        { path: '/expired', expires: 5_000 },
        { path: '/left-the-cap', expires: 5_000, at: 5_000 - CAP.windowMs },
        { path: '/in-the-cap', expires: 5_000, at: 5_001 - CAP.windowMs },
        { path: '/blocking', expires: 5_001 },
      ]),
    });
    expect(claimReload(storage, KEY, '/x', 5_000, WINDOW, CAP)).toBe('granted');
    expect(JSON.parse(storage.data.get(KEY) ?? '').map((record: { path: string }) => record.path)).toEqual([
      '/in-the-cap',
      '/blocking',
      '/x',
    ]);
  });

  it('ignores entries it did not write, and keeps the ones it did', () => {
    const valid = { path: '/a', expires: 20_000, at: 9_000 };
    const storage = memoryStorage({
      [KEY]: JSON.stringify([
        null,
        7,
        'text',
        { expires: 20_000, at: 9_000 },
        { path: 42, expires: 20_000, at: 9_000 },
        { path: '/b', expires: '20000', at: 9_000 },
        { path: '/c', expires: 1_000, at: '9000' },
        valid,
      ]),
    });
    // Only `valid` counts: with the others a cap of 2 would deny, and `/b` would be blocked.
    expect(claimReload(storage, KEY, '/b', 10_000, WINDOW, { max: 2, windowMs: 300_000 })).toBe('granted');
    expect(claimReload(storage, KEY, '/a', 10_000, WINDOW, { max: 9, windowMs: 300_000 })).toBe('denied');
    expect(JSON.parse(storage.data.get(KEY) ?? '')).toEqual([
      valid,
      { path: '/b', expires: 20_000, at: 10_000 },
    ]);
  });
});

describe('session storage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    window.sessionStorage.clear();
  });

  it('is the browser’s, checked by a write it takes back, leaving what the page stored alone', () => {
    // Any key the page may use, the empty one included.
    window.sessionStorage.setItem('kept', '1');
    window.sessionStorage.setItem('', 'empty key');
    expect(sessionStorageOrNull()).toBe(window.sessionStorage);
    expect({ ...window.sessionStorage }).toEqual({ kept: '1', '': 'empty key' });
  });

  it('is missing where the browser refuses writes (some privacy modes)', () => {
    vi.spyOn(window.sessionStorage, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    expect(sessionStorageOrNull()).toBeNull();
  });

  it('is missing where reading it throws (storage disabled)', () => {
    vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(sessionStorageOrNull()).toBeNull();
  });
});
