/**
 * The page table: the file under `src/pages/` that renders each route of the route table. The page registry
 * (src/pages/registry.ts) imports these files lazily, and the build finds the same files' chunks: their URLs
 * for the chunk retry (build/pageChunks.ts) and their preloads in a prerendered page (build/prerenderPages.ts).
 * A route is named as in the route table, which holds its path pattern.
 *
 * The order is the registry's: `virtual:page-chunks` lists the pages in it.
 */
export const pageFiles = {
  index: 'index',
  home: 'home',
  login: 'login',
  campaign: 'campaign',
  profile: 'profile',
  // The route's name says where it sits in the URL; the file says what it shows.
  campaignComponentsInfo: 'componentsInfo',
} as const satisfies Readonly<Record<string, string>>;

export type PageRoute = keyof typeof pageFiles;
export type PageFile = (typeof pageFiles)[PageRoute];

/** The page file of a route, or undefined for a name the table does not hold. */
export function pageFileOf(route: string): PageFile | undefined {
  return Object.hasOwn(pageFiles, route) ? pageFiles[route as PageRoute] : undefined;
}
