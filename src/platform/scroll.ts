/**
 * Scroll positions of history entries, so that Back and Forward return to where the visitor was, as the browser
 * does for ordinary pages: by the `history` package's `location.key` (kept in each entry's state, so a reload
 * of the tab finds the same keys), in memory, and in sessionStorage whenever the page is hidden or left.
 * Bounded: past `maxEntries`, the entries left longest ago go. While the app runs, the browser's own
 * restoration is off (`history.scrollRestoration = 'manual'`): it would scroll before the app has drawn the
 * page it returns to. The app hands it back when the page is left, so a document loaded again without the
 * app running (or before it has started) is restored by the browser.
 */
import type { ScrollConfig } from '../config';

export interface ScrollPosition {
  readonly x: number;
  readonly y: number;
}

/** The key of an entry with no state of its own: never a key to remember a position by, as many share it. */
export const NO_KEY = 'default';

function isPosition(value: unknown): value is ScrollPosition {
  const position = value as ScrollPosition | null;
  return (
    typeof position === 'object' &&
    position !== null &&
    Number.isFinite(position.x) &&
    Number.isFinite(position.y)
  );
}

/** What sessionStorage holds, as `[key, position]` pairs oldest first; anything else (edited, truncated) is none. */
function readStored(storage: Storage | null, storageKey: string): [string, ScrollPosition][] {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(storageKey) ?? '[]');
    if (!Array.isArray(stored)) return [];
    return stored.filter(
      (pair): pair is [string, ScrollPosition] =>
        Array.isArray(pair) && typeof pair[0] === 'string' && isPosition(pair[1]),
    );
  } catch {
    return [];
  }
}

export interface ScrollMemory {
  /** Remembers where the window is as the entry `key` is left. */
  leave(key: string): void;
  /** Where the window was when the entry `key` was last left; `null` if it never was (or too long ago). */
  positionOf(key: string): ScrollPosition | null;
  /**
   * Takes scroll restoration over from the browser while the app runs, and keeps the positions when the page is
   * hidden or left (the entry on screen, `currentKey()`, included). Returns what hands it back.
   */
  takeOver(currentKey: () => string): () => void;
}

export function createScrollMemory(
  storage: Storage | null,
  { storageKey, maxEntries }: ScrollConfig,
  view: Window = window,
): ScrollMemory {
  const positions = new Map(readStored(storage, storageKey).slice(-maxEntries));
  const persist = () => {
    try {
      storage?.setItem(storageKey, JSON.stringify([...positions]));
    } catch {
      // Storage full or refused: the positions of this document still work, only a reload forgets them.
    }
  };
  const leave = (key: string) => {
    if (key === NO_KEY) return;
    positions.delete(key);
    positions.set(key, { x: view.scrollX, y: view.scrollY });
    for (const oldest of positions.keys()) {
      if (positions.size <= maxEntries) break;
      positions.delete(oldest);
    }
  };
  const setMode = (mode: ScrollRestoration) => {
    if ('scrollRestoration' in view.history) view.history.scrollRestoration = mode;
  };
  return {
    leave,
    positionOf: (key) => positions.get(key) ?? null,
    takeOver(currentKey) {
      const keep = () => {
        leave(currentKey());
        persist();
      };
      const onHidden = () => {
        if (view.document.visibilityState === 'hidden') keep();
      };
      // Left (a reload, another site, the tab closing) or put in the back/forward cache: the browser restores
      // the next document of this entry itself; one restored from the cache gets the app back at `pageshow`.
      const onPageHide = () => {
        keep();
        setMode('auto');
      };
      const onPageShow = (event: PageTransitionEvent) => {
        if (event.persisted) setMode('manual');
      };
      setMode('manual');
      view.document.addEventListener('visibilitychange', onHidden);
      view.addEventListener('pagehide', onPageHide);
      view.addEventListener('pageshow', onPageShow);
      return () => {
        view.document.removeEventListener('visibilitychange', onHidden);
        view.removeEventListener('pagehide', onPageHide);
        view.removeEventListener('pageshow', onPageShow);
        setMode('auto');
      };
    },
  };
}

/** The document was reloaded, or loaded again by Back or Forward (not from the back/forward cache). */
export function isReturningDocument(view: Window = window): boolean {
  const [entry] = view.performance?.getEntriesByType?.('navigation') ?? [];
  const type = (entry as PerformanceNavigationTiming | undefined)?.type;
  return type === 'reload' || type === 'back_forward';
}
