import { isPrerendered } from '../../core/payload';
import { matchRoute, parseLocation, type RouteName } from '../../core/routes';
import { config } from '../config';
import { loadPayload } from './payload';

/**
 * Prefetching, as Nuxt does it for a prerendered site: a link on screen has its page's code fetched while the
 * browser is idle and, when the build prerendered that page, its `_payload.json` (a static file a CDN can
 * serve); pointing at, focusing or touching a link fetches its page's data at once, which for a page without
 * a payload means its loader (the API). A visit that does nothing thus costs the API nothing. API data goes
 * into `pageDataCache`, which the page loader (src/pages/registry.ts `loadPage`) reads first; payloads are
 * shared through src/platform/payload.ts, whose requests the navigation reuses.
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
    // Stryker disable next-line ConditionalExpression: `drop` is only ever called with a key that is in the map: `prune` passes the key it is iterating on or the first key while the map is over its size, and `setViewer` and `clear` iterate a copy of the keys while each `drop` deletes only its own key. Aborting a controller runs the loader's abort listeners, which would have to call back into the cache synchronously to remove another key first; no loader does (the API client and registry.ts only reject their promise). The guard is defensive; every caller is tested ('keeps at most maxEntries…', 'cancels only requests still running when entries go…').
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
        // Stryker disable next-line ObjectLiteral: An AbortSignal fires 'abort' at most once (a second `abort()` on an aborted signal does nothing), so `once` only decides whether the listener is removed after that single call; `cancel` does the same either way. Cancelling on a superseding navigation is tested ('hands a running request to the navigation that takes it…').
        // Stryker disable next-line BooleanLiteral: As for `{}` on this line: the 'abort' event fires once per signal, so `once: false` changes only when the listener is released, not how often `cancel` runs.
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

/** The page registry's importer (src/pages/registry.ts), handed in by src/start.tsx: nothing is prefetched before. */
export function connectPrefetch(importer: PageImporter): void {
  importPage = importer;
}

/** What the build manifest says of payloads: the prerendered paths, `null` when the manifest failed. */
export interface BuildPayloads {
  readonly prerendered: readonly string[] | null;
  readonly buildId: string;
}

/** Where prefetching learns which pages have a payload: the build manifest (useManifestSource, src/ui). */
export interface ManifestSource {
  /** What the manifest said once it has loaded or failed; `undefined` while it is on its way. */
  readonly settled: () => BuildPayloads | undefined;
  /** Resolves once it has loaded or failed; `now` asks for it at once rather than at its preload time. */
  readonly whenSettled: (now: boolean) => Promise<BuildPayloads>;
}

export interface PrefetchOptions {
  /** Whether a session exists: a page that needs one never has its data fetched for a signed-out visitor. */
  readonly signedIn: boolean;
  /**
   * What to warm besides the page's code. `payload` (a link on screen): a prerendered page's `_payload.json`,
   * never the API. `any` (pointer, focus, touch): the payload, or the API for a page without one.
   */
  readonly data: 'none' | 'payload' | 'any';
  readonly manifest: ManifestSource;
}

/**
 * Warms a link's target: its page chunk and, if asked, its data. Only what the navigation itself would load
 * is fetched: a path that matches no route or fails its validate rule gets nothing, and neither does anything
 * on Save-Data or a 2G connection. Never throws.
 *
 * Which data that is depends on the manifest, which arrives about a second after start: a prerendered page's
 * data is its payload, any other page's its loader. A decision that comes before the manifest waits for it,
 * never guessing the API: that would be a database read the navigation does not use. A link on screen waits
 * for the manifest's own preload. Intent (a hover right after load) asks for the manifest at once instead:
 * it is a small static file already due, and the click's navigation waits for it anyway (the guards apply
 * its route rules), so the prefetch loses nothing by waiting. Guessing a payload from the route rules alone
 * would be wrong for a campaign published after the build (a 404, then the API after all).
 */
export function prefetchPath(to: string, options: PrefetchOptions): void {
  const importer = importPage;
  if (!importer || !browserCanPrefetch()) return;
  const location = parseLocation(to);
  const match = location ? matchRoute(location.pathname) : null;
  if (!location || !match) return;
  if (match.route.validate && match.route.validate(match) !== true) return;
  const page = importer(match.route.name, { prefetch: true });
  page.catch(() => undefined);
  const { data, manifest } = options;
  if (data === 'none' || (!options.signedIn && match.route.requiresAuth)) return;
  const { pathname } = location;
  const fullPath = `${pathname}${location.search}`;
  const warm = ({ prerendered, buildId }: BuildPayloads) => {
    if (isPrerendered(pathname, prerendered)) void loadPayload(pathname, buildId);
    else if (data === 'any')
      pageDataCache.prefetch(pageDataKey(fullPath), async (signal) =>
        (await page).loader?.({ params: match.params, fullPath, signal }),
      );
  };
  const known = manifest.settled();
  if (known) warm(known);
  else void manifest.whenSettled(data === 'any').then(warm);
}
