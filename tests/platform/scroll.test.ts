// @vitest-environment happy-dom
// Scroll positions of history entries (src/platform/scroll.ts): remembered as an entry is left, bounded, kept in
// sessionStorage when the page is hidden or left so that a reload finds them, and the browser's own restoration
// off only while the app runs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScrollMemory, isReturningDocument, NO_KEY } from '../../src/platform/scroll';

const settings = { storageKey: 'test:scroll', maxEntries: 3 };

/** A sessionStorage of its own per test (happy-dom's is shared by the file). */
function storage(initial: Record<string, string> = {}): Storage {
  const items = new Map(Object.entries(initial));
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, String(value));
    },
  };
}

function scrolledTo(y: number, x = 0) {
  window.scrollTo(x, y);
}

afterEach(() => {
  window.history.scrollRestoration = 'auto';
  scrolledTo(0);
  vi.restoreAllMocks();
});

describe('createScrollMemory', () => {
  it('remembers where the window is as an entry is left, by its key', () => {
    const memory = createScrollMemory(storage(), settings);
    scrolledTo(640, 12);
    memory.leave('a1');
    scrolledTo(0);
    memory.leave('b2');
    expect(memory.positionOf('a1')).toEqual({ x: 12, y: 640 });
    expect(memory.positionOf('b2')).toEqual({ x: 0, y: 0 });
    expect(memory.positionOf('never-left')).toBeNull();
  });

  it('never remembers under the key that entries without state share', () => {
    const memory = createScrollMemory(storage(), settings);
    scrolledTo(300);
    memory.leave(NO_KEY);
    expect(memory.positionOf(NO_KEY)).toBeNull();
  });

  it('keeps the entries left most recently, up to the limit; leaving one again makes it recent', () => {
    const memory = createScrollMemory(storage(), settings);
    for (const [key, y] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const) {
      scrolledTo(y);
      memory.leave(key);
    }
    scrolledTo(10);
    memory.leave('a');
    scrolledTo(4);
    memory.leave('d');
    expect(memory.positionOf('b')).toBeNull();
    expect(memory.positionOf('a')).toEqual({ x: 0, y: 10 });
    expect(memory.positionOf('c')).toEqual({ x: 0, y: 3 });
    expect(memory.positionOf('d')).toEqual({ x: 0, y: 4 });
  });

  it('writes the positions, the entry on screen included, when the page is left, and a reload reads them back', () => {
    const session = storage();
    const memory = createScrollMemory(session, settings);
    const handBack = memory.takeOver(() => 'on-screen');
    scrolledTo(200);
    memory.leave('earlier');
    scrolledTo(900);
    window.dispatchEvent(new Event('pagehide'));
    handBack();
    expect(JSON.parse(session.getItem('test:scroll') ?? '')).toEqual([
      ['earlier', { x: 0, y: 200 }],
      ['on-screen', { x: 0, y: 900 }],
    ]);
    const reloaded = createScrollMemory(session, settings);
    expect(reloaded.positionOf('on-screen')).toEqual({ x: 0, y: 900 });
    expect(reloaded.positionOf('earlier')).toEqual({ x: 0, y: 200 });
  });

  it('writes them when the tab is hidden too (a phone may discard it without `pagehide`), not when shown', () => {
    const session = storage();
    const memory = createScrollMemory(session, settings);
    const handBack = memory.takeOver(() => 'on-screen');
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(session.getItem('test:scroll')).toBeNull();
    visibility.mockReturnValue('hidden');
    scrolledTo(75);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(JSON.parse(session.getItem('test:scroll') ?? '')).toEqual([['on-screen', { x: 0, y: 75 }]]);
    handBack();
  });

  it('stops listening when handed back', () => {
    const session = storage();
    const memory = createScrollMemory(session, settings);
    memory.takeOver(() => 'on-screen')();
    window.dispatchEvent(new Event('pagehide'));
    expect(session.getItem('test:scroll')).toBeNull();
  });

  it('reads only what it wrote: anything else in storage is no position, and the newest stay within the limit', () => {
    const stored = JSON.stringify([
      ['a', { x: 0, y: 1 }],
      ['b', { x: 0, y: 'far' }],
      ['c', null],
      [7, { x: 0, y: 1 }],
      'd',
      ['e', { x: 0, y: 5 }],
      ['f', { x: 0, y: 6 }],
      ['g', { x: 0, y: 7 }],
    ]);
    const memory = createScrollMemory(storage({ 'test:scroll': stored }), settings);
    expect(memory.positionOf('b')).toBeNull();
    expect(memory.positionOf('c')).toBeNull();
    expect(memory.positionOf('a')).toBeNull();
    expect(memory.positionOf('g')).toEqual({ x: 0, y: 7 });
    for (const broken of ['{"a":1}', 'not json', '']) {
      const none = createScrollMemory(storage({ 'test:scroll': broken }), settings);
      expect(none.positionOf('a')).toBeNull();
    }
  });

  it('works without storage, or with storage that refuses to write (a full quota): only a reload forgets', () => {
    const refusing = storage();
    refusing.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    for (const session of [null, refusing]) {
      const memory = createScrollMemory(session, settings);
      const handBack = memory.takeOver(() => 'on-screen');
      scrolledTo(30);
      expect(() => window.dispatchEvent(new Event('pagehide'))).not.toThrow();
      expect(memory.positionOf('on-screen')).toEqual({ x: 0, y: 30 });
      handBack();
    }
  });

  it('turns the browser’s restoration off while the app runs, back on when the page is left or handed back', () => {
    const memory = createScrollMemory(storage(), settings);
    const handBack = memory.takeOver(() => 'on-screen');
    expect(window.history.scrollRestoration).toBe('manual');
    window.dispatchEvent(new Event('pagehide'));
    expect(window.history.scrollRestoration).toBe('auto');
    // Shown again as a new document's would be: the app that starts takes over itself.
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: false }));
    expect(window.history.scrollRestoration).toBe('auto');
    // Back from the back/forward cache: this app runs again, and restores again.
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    expect(window.history.scrollRestoration).toBe('manual');
    handBack();
    expect(window.history.scrollRestoration).toBe('auto');
  });
});

describe('isReturningDocument', () => {
  const navigated = (type: string | undefined) =>
    ({
      performance: { getEntriesByType: () => (type ? [{ type }] : []) },
    }) as unknown as Window;

  it('is true for a reload and for a document loaded again by Back or Forward, only', () => {
    expect(isReturningDocument(navigated('reload'))).toBe(true);
    expect(isReturningDocument(navigated('back_forward'))).toBe(true);
    expect(isReturningDocument(navigated('navigate'))).toBe(false);
    expect(isReturningDocument(navigated('prerender'))).toBe(false);
    expect(isReturningDocument(navigated(undefined))).toBe(false);
    expect(isReturningDocument({} as Window)).toBe(false);
  });
});
