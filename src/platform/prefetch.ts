import { isPrerendered } from '../../machines/payload';
import { matchRoute, parseLocation, type RouteName } from '../../machines/routes';
import { config } from '../config';
import { loadPayload } from './payload';

/**
 * Prefetching, as the fastest routers do it: a page's data starts loading when a visitor points at, focuses
 * or touches a link to it, and its code when the link scrolls into view while the browser is idle. The data
 * goes into `pageDataCache`, which the page loader (src/pages/registry.ts `loadPage`) reads first; anything
 * else that can hand a page its data early (a prerendered payload) can put it there too.
 */

/** The part of `navigator.connection` (Network Information API, Chromium only) that is read. */
export interface ConnectionHints {
  readonly saveData?: boolean;
  readonly effectiveType?: string;
}

/** No speculative downloads for someone who asked to save data or is on a 2G-class connection. */
export function canPrefetch(connection: ConnectionHints | undefined): boolean {
  if (!connection) return true;
  if (connection.saveData === true) return false;
  return connection.effectiveType !== 'slow-2g' && connection.effectiveType !== '2g';
}

export function browserCanPrefetch(): boolean {
  if (typeof navigator === 'undefined') return false;
  return canPrefetch((navigator as Navigator & { connection?: ConnectionHints }).connection);
}

export interface PageDataCacheOptions {
  /** At most this many entries; the oldest goes first, and its request is cancelled if still running. */
  readonly maxEntries: number;
  /** An entry older than this is never used: the page loads its data itself. */
  readonly freshMs: number;
  readonly now: () => number;
}

interface Entry {
  readonly data: Promise<unknown>;
  readonly controller: AbortController | undefined;
  readonly at: number;
  settled: boolean;
}

export interface PageDataCache {
  /** Starts (or keeps) loading the data for `key`; `load` gets a signal that eviction aborts. */
  prefetch(key: string, load: (signal: AbortSignal) => Promise<unknown>): void;
  /** Puts data that is already known (a prerendered payload) under `key`. */
  put(key: string, data: unknown): void;
  /** Whether a fresh entry exists for `key`. */
  has(key: string): boolean;
  /**
   * The fresh entry for `key`, removed: each prefetch serves one navigation, so data is never older than it.
   * The request now belongs to that navigation: `signal` (a newer navigation superseding it) cancels it.
   */
  take(key: string, signal?: AbortSignal): Promise<unknown> | undefined;
  /** Who the data was loaded for; a different viewer (sign-in, sign-out) empties the cache. */
  setViewer(viewer: string | null): void;
  clear(): void;
  readonly size: number;
}

/**
 * A small, short-lived cache of page data keyed by path and query (never the #fragment). A failed prefetch
 * leaves no entry, so the navigation loads the data itself and shows the real error if there is one.
 */
export function createPageDataCache(options: PageDataCacheOptions): PageDataCache {
  const entries = new Map<string, Entry>();
  let viewer: string | null | undefined;

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    if (!entry.settled) entry.controller?.abort();
  };
  const isFresh = (entry: Entry) => options.now() - entry.at < options.freshMs;
  const prune = () => {
    for (const [key, entry] of entries) if (!isFresh(entry)) drop(key);
    while (entries.size > options.maxEntries) drop(entries.keys().next().value as string);
  };
  const add = (key: string, data: Promise<unknown>, controller?: AbortController) => {
    const entry: Entry = { data, controller, at: options.now(), settled: false };
    entries.delete(key);
    entries.set(key, entry);
    data.then(
      () => {
        entry.settled = true;
      },
      () => {
        entry.settled = true;
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    prune();
  };

  return {
    prefetch(key, load) {
      prune();
      if (entries.has(key)) return;
      const controller = new AbortController();
      let data: Promise<unknown>;
      try {
        data = load(controller.signal);
      } catch (error) {
        data = Promise.reject(error);
      }
      // Nobody may be waiting for it: a failure must not surface as an unhandled rejection.
      data.catch(() => undefined);
      add(key, data, controller);
    },
    put(key, data) {
      add(key, Promise.resolve(data));
    },
    has(key) {
      prune();
      return entries.has(key);
    },
    take(key, signal) {
      prune();
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (signal && !entry.settled) {
        const cancel = () => {
          if (!entry.settled) entry.controller?.abort();
        };
        if (signal.aborted) cancel();
        else signal.addEventListener('abort', cancel, { once: true });
      }
      return entry.data;
    },
    setViewer(next) {
      if (viewer !== undefined && viewer !== next) {
        for (const key of [...entries.keys()]) drop(key);
      }
      viewer = next;
    },
    clear() {
      for (const key of [...entries.keys()]) drop(key);
    },
    get size() {
      return entries.size;
    },
  };
}

/** The page's one cache (`config.prefetch`). */
export const pageDataCache = createPageDataCache({ ...config.prefetch, now: () => performance.now() });

/** The cache key of a target: path and query; the #fragment never changes what a page loads. */
export function pageDataKey(fullPath: string): string {
  const hash = fullPath.indexOf('#');
  return hash === -1 ? fullPath : fullPath.slice(0, hash);
}

/** What prefetching needs of a page module: the loader the navigation will call. */
export interface PrefetchablePage {
  readonly loader?: (args: {
    readonly params: Readonly<Record<string, string>>;
    readonly fullPath: string;
    readonly signal: AbortSignal;
  }) => Promise<unknown>;
}

export type PageImporter = (
  route: RouteName,
  options: { readonly prefetch: true },
) => Promise<PrefetchablePage>;

let importPage: PageImporter | undefined;

/** The page registry's importer (src/pages/registry.ts), handed in by main.tsx: nothing is prefetched before. */
export function connectPrefetch(importer: PageImporter): void {
  importPage = importer;
}

export interface PrefetchOptions {
  /** Whether a session exists: a page that needs one never has its data fetched for a signed-out visitor. */
  readonly signedIn: boolean;
  /** Also start loading the page's data (pointer, focus or touch on the link), not only its code. */
  readonly data: boolean;
  /**
   * What this build prerendered (from the manifest, once it has arrived): the data of such a page is its
   * `_payload.json`, which the navigation reads first, so that is what is warmed, never the API.
   */
  readonly payloads?: { readonly prerendered: readonly string[] | null; readonly buildId: string };
}

/**
 * Warms a link's target: its page chunk and, if asked, its data into the page-data cache. Only what the
 * navigation itself would load is fetched: a path that matches no route or fails its validate rule gets
 * nothing, and neither does anything on Save-Data or a 2G connection. Never throws.
 */
export function prefetchPath(to: string, options: PrefetchOptions): void {
  const importer = importPage;
  if (!importer || !browserCanPrefetch()) return;
  const location = parseLocation(to);
  const match = location ? matchRoute(location.pathname) : null;
  if (!location || !match) return;
  if (match.route.validate && match.route.validate(match) !== true) return;
  const wantsData = options.data && (options.signedIn || !match.route.requiresAuth);
  const fullPath = `${location.pathname}${location.search}`;
  if (wantsData && options.payloads && isPrerendered(location.pathname, options.payloads.prerendered)) {
    importer(match.route.name, { prefetch: true }).catch(() => undefined);
    void loadPayload(location.pathname, options.payloads.buildId);
    return;
  }
  const key = pageDataKey(fullPath);
  if (wantsData && pageDataCache.has(key)) return;
  const page = importer(match.route.name, { prefetch: true });
  page.catch(() => undefined);
  if (!wantsData) return;
  pageDataCache.prefetch(key, async (signal) => {
    const loaded = await page;
    return loaded.loader?.({ params: match.params, fullPath, signal });
  });
}
