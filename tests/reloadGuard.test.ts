import { describe, expect, it } from 'vitest';
import { claimReload } from '../src/platform/reloadGuard';

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
    expect(claimReload(memoryStorage({ [KEY]: '{not json' }), KEY, '/x', 0, WINDOW, CAP)).toBe('granted');
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
});
