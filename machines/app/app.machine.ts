import { findRoute, globalGuards, type RouteName, type RouteRecord, routes } from '../../core/routes';
import { buildImplementations, buildRegion } from './app.build';
import { errorsImplementations, errorsRegion } from './app.errors';
import { freshnessImplementations, freshnessRegion } from './app.freshness';
import { bootPage, navigationRegion, navigationSetup, routeGuards } from './app.navigation';

export type {
  AppContext,
  AppEvent,
  AppInput,
  AppPageLoader,
  AppPageRevalidator,
  AppTiming,
  LoadedPage,
  LoadPageInput,
  PayloadPreload,
  ReloadClaim,
  RevalidateInput,
} from './app.setup';

/**
 * The application: navigation (match, guards, validate, load, commit), the build (manifest rules, update
 * detection), the error page and the freshness of build-time data, as four parallel regions.
 *
 * Events in: `nav.go`, `nav.popped` (history adapter), `page.changed` (visibility/connection watcher),
 * `session.changed` (its session child), `error.raised` (a page that threw while rendering), `manifest.needed`
 * (link prefetching wants the build manifest now).
 * Must be provided (placeholders in app.setup.ts and the region files): actors `listenToHistory`, `watchPage`, `loadPage`, `detectCrawler`,
 * `fetchManifest`, `fetchLatestBuild`, `claimReload` and the session machine's actors; actions
 * `updateAddressBar`, `loadDocument`, `logSuppressedError`, `reportRejectedTarget`, `logManifestFetchError`,
 * `logManifestMatcherError`, `notifyUpdateAvailable`, `preloadPayloads`; actor `revalidatePage`; guard
 * `isSlowConnection`. Input `initial` boots it on a prerendered page (settled, for hydration).
 * Tags out: `booting` (no page yet), `busy` (a navigation is pending), `slow` (and it is taking long),
 * `error` (the error page replaces the layout), `updatePending` (a newer build is out), `manifestSettled` (the
 * build manifest has loaded or failed).
 * Children: `session` (system id `session`), `toaster` (system id `toaster`; provide a configured one),
 * `colorMode` (system id `colorMode`; told each settled page's forced mode with `route.forced`).
 */
export const appMachine = navigationSetup
  .extend(buildImplementations)
  .extend(errorsImplementations)
  .extend(freshnessImplementations)
  .createMachine({
    id: 'app',
    type: 'parallel',
    context: ({ input }) => ({
      appName: input.appName,
      limits: {
        maxRedirects: input.maxRedirects,
        maxEchoedPathLength: input.maxEchoedPathLength,
        maxRememberedPages: input.maxRememberedPages,
      },
      timing: input.timing,
      routes: input.routes ?? routes,
      globalGuards: input.globalGuards ?? globalGuards,
      guards: input.guards ?? routeGuards,
      session: 'unknown',
      pending: null,
      // Booting on a prerendered page: it is on screen already, as if a navigation to it had settled.
      current: bootPage(input.initial, input.routes ?? routes),
      remembered: [],
      error: null,
      visitor: 'unknown',
      build: { id: input.buildId, latestId: null, failedChecks: 0 },
      routeRules: null,
      prerendered: null,
      page: { visible: true, online: true },
    }),
    invoke: [
      { id: 'session', systemId: 'session', src: 'session' },
      // Settings and clock are given by the provided logic (createToasterMachine), so no input here.
      { id: 'toaster', systemId: 'toaster', src: 'toaster' },
      {
        id: 'colorMode',
        systemId: 'colorMode',
        src: 'colorMode',
        input: ({ context }) => ({ forced: forcedColorMode(context) }),
      },
      {
        id: 'history',
        src: 'listenToHistory',
        input: ({ context }) => ({ reportStart: context.current === null }),
      },
      { id: 'page', src: 'watchPage' },
    ],
    states: {
      navigation: navigationRegion,
      build: buildRegion,
      errors: errorsRegion,
      freshness: freshnessRegion,
    },
  });

export type AppMachine = typeof appMachine;

/** What the page the app boots on forces (only a prerendered page is on screen at creation). */
function forcedColorMode(context: {
  readonly current: { readonly route: RouteName | null } | null;
  readonly routes: readonly RouteRecord[];
}) {
  const route = context.current?.route;
  return route ? (findRoute(route, context.routes).colorMode ?? null) : null;
}
