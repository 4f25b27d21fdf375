import { buildRegion } from './app.build';
import { errorsRegion } from './app.errors';
import { navigationRegion } from './app.navigation';
import { appSetup } from './app.setup';
import { routeGuards } from './guards';
import { globalMiddleware, routes } from './routes';

export type { AppContext, AppEvent, AppInput, LoadedPage, LoadPageInput, ReloadClaim } from './app.setup';

/**
 * The application: navigation (match, guards, validate, load, commit), the build (manifest rules, update
 * detection) and the error page, as three parallel regions.
 *
 * Events in: `nav.go`, `nav.popped` (history adapter), `page.changed` (visibility/connection watcher),
 * `session.changed` (its session child), `error.raised` (a page that threw while rendering).
 * Must be provided (see app.setup.ts): actors `listenToHistory`, `watchPage`, `loadPage`, `detectCrawler`,
 * `fetchManifest`, `fetchLatestBuild`, `claimReload` and the session machine's actors; actions
 * `updateAddressBar`, `loadDocument`, `logSuppressedError`, `reportRejectedTarget`, `logManifestFetchError`,
 * `logManifestMatcherError`, `notifyUpdateAvailable`; guard `isSlowConnection`.
 * Tags out: `booting` (no page yet), `busy` (a navigation is pending), `slow` (and it is taking long),
 * `error` (the error page replaces the layout), `updatePending` (a newer build is out).
 * Children: `session` (system id `session`), `toaster` (system id `toaster`; provide a configured one),
 * `colorMode` (system id `colorMode`; told each settled page's forced mode with `route.forced`).
 */
export const appMachine = appSetup.createMachine({
  id: 'app',
  type: 'parallel',
  context: ({ input }) => ({
    limits: { maxRedirects: input.maxRedirects, maxEchoedPathLength: input.maxEchoedPathLength },
    timing: {
      slowNavigationMs: input.slowNavigationMs,
      manifestPreloadMs: input.manifestPreloadMs,
      updateCheckIntervalMs: input.updateCheckIntervalMs,
      maxUpdateCheckIntervalMs: input.maxUpdateCheckIntervalMs,
      updateRecheckThrottleMs: input.updateRecheckThrottleMs,
    },
    routes: input.routes ?? routes,
    globalMiddleware: input.globalMiddleware ?? globalMiddleware,
    guards: input.guards ?? routeGuards,
    session: 'unknown',
    pending: null,
    current: null,
    error: null,
    visitor: 'unknown',
    build: { id: input.buildId, latestId: null, failedChecks: 0 },
    routeRules: null,
    page: { visible: true, online: true },
  }),
  invoke: [
    { id: 'session', systemId: 'session', src: 'session' },
    // Settings and clock are given by the provided logic (createToasterMachine), so no input here.
    { id: 'toaster', systemId: 'toaster', src: 'toaster' },
    { id: 'colorMode', systemId: 'colorMode', src: 'colorMode' },
    { id: 'history', src: 'listenToHistory' },
    { id: 'page', src: 'watchPage' },
  ],
  states: {
    navigation: navigationRegion,
    build: buildRegion,
    errors: errorsRegion,
  },
});

export type AppMachine = typeof appMachine;
