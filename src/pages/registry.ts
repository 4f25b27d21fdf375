import { fromPromise } from 'xstate';
import type { LoadedPage, LoadPageInput } from '../../machines/app.machine';
import type { RouteName } from '../../machines/routes';
import type { AnyPage } from './types';

/** One lazily loaded chunk per route. */
const importers: Readonly<Record<RouteName, () => Promise<{ default: AnyPage }>>> = {
  index: () => import('./index'),
  home: () => import('./home'),
  login: () => import('./login'),
  campaign: () => import('./campaign'),
  profile: () => import('./profile'),
  campaignComponentsInfo: () => import('./componentsInfo'),
};

const loaded = new Map<RouteName, AnyPage>();

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

async function importPage(route: RouteName): Promise<AnyPage> {
  const cached = loaded.get(route);
  if (cached) return cached;
  let page: AnyPage;
  try {
    page = (await importers[route]()).default;
  } catch (error) {
    throw new ChunkLoadError(route, error);
  }
  loaded.set(route, page);
  return page;
}

/** The page of a route whose chunk has loaded; the view renders only committed, hence loaded, routes. */
export function loadedPage(route: RouteName): AnyPage | undefined {
  return loaded.get(route);
}

/** The app machine's `loadPage` actor: the chunk, then the page's data, both before the URL commits. */
export const loadPage = fromPromise<LoadedPage, LoadPageInput>(async ({ input, signal }) => {
  const page = await importPage(input.route);
  const data = page.loader
    ? await page.loader({ params: input.params, fullPath: input.fullPath, signal })
    : undefined;
  return { data };
});
