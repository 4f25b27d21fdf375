import pageChunkUrls from 'virtual:page-chunks';
import { fromPromise } from 'xstate';
import { type PageRoute, pageFiles } from '../../core/pages';
import type { RouteName } from '../../core/routes';
import type { LoadedPage, LoadPageInput, RevalidateInput } from '../../machines/app/app.machine';
import { loadPayload } from '../platform/payload';
import { pageDataCache, pageDataKey } from '../platform/prefetch';
import { afterPaint } from '../platform/tasks';
import type { AnyPage } from './types';

/**
 * One lazily loaded chunk per route: the page table's file (core/pages.ts), under which `virtual:page-chunks`
 * gives the chunk's URL too, keyed by the table's routes (the compiler refuses a route missing or extra). Each
 * `import()` is written out because the bundler makes a chunk only of an import it can read;
 * tests/core/pages.test.ts checks that each one imports the table's file.
 */
const pages: { readonly [route in PageRoute]: () => Promise<{ default: AnyPage }> } = {
  index: () => import('./index'),
  home: () => import('./home'),
  login: () => import('./login'),
  campaign: () => import('./campaign'),
  profile: () => import('./profile'),
  campaignComponentsInfo: () => import('./componentsInfo'),
};

const loaded = new Map<RouteName, AnyPage>();
/** How many imports of a route's chunk have failed in this document: each retry needs a URL of its own. */
const failedImports = new Map<RouteName, number>();

/**
 * The route's page module. After a failure the same URL would not do: Chromium keeps a failed
 * dynamic import in its module map and rejects a second `import()` of that URL without a request. So a retry
 * imports the chunk's URL with a query it has not seen (`?retry=1`, then `?retry=2`), which the module map
 * treats as a new module and the server as the same immutable file (build/pageChunks.ts gives the URLs).
 * The first attempt keeps the bundler's own import, with its preloads of the chunk's dependencies.
 */
function importRoute(route: RouteName): Promise<{ default: AnyPage }> {
  const failures = failedImports.get(route) ?? 0;
  const url = pageChunkUrls[pageFiles[route]];
  if (failures === 0 || url === undefined) return pages[route]();
  return import(/* @vite-ignore */ `${url}?retry=${failures}`);
}

/** A page's code could not be downloaded: a network blip, or a deploy removed the old chunk. */
export class ChunkLoadError extends Error {
  readonly statusCode = 500;
  /** What the app machine's `isChunkError` guard looks for. */
  readonly kind = 'chunk';
  constructor(
    readonly route: RouteName,
    override readonly cause: unknown,
  ) {
    super('A part of the app could not be loaded. Check your connection, then reload the page.');
    this.name = 'ChunkLoadError';
  }
}

const importing = new Map<RouteName, Promise<AnyPage>>();
/** A prefetch's failed import, kept for the navigation that follows it (10 s at most). */
const prefetchFailures = new Map<RouteName, { readonly error: ChunkLoadError; readonly at: number }>();
const PREFETCH_FAILURE_MS = 10_000;
/** Prefetch attempts a navigation is waiting on. */
const claimed = new WeakSet<Promise<AnyPage>>();

/**
 * A route's page module, loaded once; also what prefetching warms (src/start.tsx hands it to src/platform/prefetch.ts).
 * Callers while it is on its way share one import. A failure is not kept, except that a prefetch's failure counts
 * as the next navigation's first attempt: a click right after a hover then makes one request, and the chunk
 * recovery (a build check, then one retry) runs as it would have without the prefetch.
 */
export function importPage(
  route: RouteName,
  options: { readonly prefetch?: boolean } = {},
): Promise<AnyPage> {
  const cached = loaded.get(route);
  if (cached) return Promise.resolve(cached);
  const failure = prefetchFailures.get(route);
  if (failure && !options.prefetch) {
    prefetchFailures.delete(route);
    if (performance.now() - failure.at < PREFETCH_FAILURE_MS) return Promise.reject(failure.error);
  }
  const pending = importing.get(route);
  if (pending) {
    // A navigation joined the prefetch's attempt: its failure is that navigation's, not one to keep.
    if (!options.prefetch) claimed.add(pending);
    return pending;
  }
  const attempt: Promise<AnyPage> = importRoute(route).then(
    (module) => {
      loaded.set(route, module.default);
      return module.default;
    },
    (error: unknown) => {
      failedImports.set(route, (failedImports.get(route) ?? 0) + 1);
      const chunkError = new ChunkLoadError(route, error);
      if (options.prefetch && !claimed.has(attempt)) {
        prefetchFailures.set(route, { error: chunkError, at: performance.now() });
      }
      throw chunkError;
    },
  );
  importing.set(route, attempt);
  const forget = () => importing.delete(route);
  attempt.then(forget, forget);
  return attempt;
}

/** The page of a route whose chunk has loaded; the view renders only committed, hence loaded, routes. */
export function loadedPage(route: RouteName): AnyPage | undefined {
  return loaded.get(route);
}

/**
 * The app machine's `loadPage` actor: the chunk, then the page's data, both before the URL commits. The data
 * comes from the first of: the page's `_payload.json` when this build prerendered it (a static file, often
 * preloaded); data prefetched for this path (src/platform/prefetch.ts) while it is fresh; the page's loader.
 * A payload that cannot be had (another build's, a 404, not JSON) falls back, never to an error.
 */
export const loadPage = fromPromise<LoadedPage, LoadPageInput>(async ({ input, signal }) => {
  const [page, payload] = await Promise.all([
    importPage(input.route),
    input.payload ? loadPayload(input.payload.path, input.payload.buildId) : null,
  ]);
  if (!page.loader) return { data: undefined, title: page.title?.(undefined) };
  if (payload && 'data' in payload)
    return { data: payload.data, title: page.title?.(payload.data), fromPayload: true };
  // A prefetch still running (or done) becomes this navigation's request: its failure is the navigation's,
  // as its own request's would be. One that failed earlier is gone from the cache, so the page asks itself.
  const prefetched = pageDataCache.take(pageDataKey(input.fullPath), signal);
  const data =
    prefetched !== undefined
      ? await prefetched
      : await page.loader({ params: input.params, fullPath: input.fullPath, signal });
  return { data, title: page.title?.(data) };
});

/**
 * The app machine's `revalidatePage` actor: the page's data again, from its loader (the API). Nothing
 * prefetched can stand in for it: a page is only shown from its payload when the manifest lists it, and
 * prefetching asks the API only for pages the manifest does not list (src/platform/prefetch.ts). It asks
 * once the page is painted: started by the commit of a navigation, its request would come between the click
 * and the new page on screen (docs/decisions/focus-after-the-paint.md). A navigation that replaces the page
 * before then asks nothing.
 */
export const revalidatePage = fromPromise<LoadedPage, RevalidateInput>(async ({ input, signal }) => {
  await new Promise<void>((resolve) => afterPaint(resolve));
  signal.throwIfAborted();
  const page = await importPage(input.route);
  if (!page.loader) return { data: undefined, title: page.title?.(undefined) };
  const data = await page.loader({ params: input.params, fullPath: input.fullPath, signal });
  return { data, title: page.title?.(data) };
});
