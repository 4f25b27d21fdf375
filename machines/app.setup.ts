/**
 * The app machine's vocabulary: types, and every actor, action, guard and delay its regions name. The
 * regions live in their own files (app.navigation.ts, app.build.ts, app.errors.ts); app.machine.ts joins
 * them. Effects are placeholders that fail loudly: src/platform/ provides the real ones, tests provide fakes.
 */
import { and, assign, fromCallback, fromPromise, or, raise, sendTo, setup, stateIn } from 'xstate';
import {
  type AddressBarUpdate,
  type BootPage,
  beginNavigation,
  type CommittedNavigation,
  committed,
  followRedirect,
  fragmentStep,
  guardNamesFor,
  isAppPath,
  isFirstSettle,
  type NavigationLimits,
  type PendingNavigation,
  validateError,
  withMatch,
  withVerdict,
} from './app.utils';

import { type ColorModeEvent, colorModeMachine } from './colorMode.machine';
import type { AppError } from './errors';
import type { RouteGuard } from './guards';
import { parseLatestBuild, parseManifest, type RouteRuleTable } from './routeRules';
import { findRoute, type RouteName, type RouteRecord } from './routes';
import { isUnauthorized, type SessionEvent, type SessionReport, sessionMachine } from './session.machine';
import { toasterMachine } from './toaster.machine';

export type AppEvent =
  /** From a link or from code: open this app path. */
  | { type: 'nav.go'; to: string; replace?: boolean }
  /** From the browser: the first location, or a back/forward step. */
  | { type: 'nav.popped'; to: string }
  /** From the browser: the tab's visibility or the connection changed (and once at start). */
  | { type: 'page.changed'; visible: boolean; online: boolean }
  | SessionReport
  | { type: 'error.raised'; error: AppError }
  | { type: 'error.cleared' }
  | { type: 'manifest.needed' }
  | { type: 'manifest.settled' };

/** Every delay the app machine waits for, as one object from config into its input and context. */
export interface AppTiming {
  /** A navigation slower than this shows the loading indicator. */
  readonly slowNavigationMs: number;
  /** The build manifest is fetched this long after start. */
  readonly manifestPreloadMs: number;
  /** How often `latest.json` is checked; failed checks double it, up to the maximum. */
  readonly updateCheckIntervalMs: number;
  readonly maxUpdateCheckIntervalMs: number;
  /** Coming back to the tab checks at once, but not more often than this. */
  readonly updateRecheckThrottleMs: number;
}

export interface AppInput extends NavigationLimits {
  /** Ends every document title (`Sign in | campaign-web`). */
  readonly appName: string;
  readonly timing: AppTiming;
  /** The id of the running build; a different id in `latest.json` means an update. */
  readonly buildId: string;
  readonly routes?: readonly RouteRecord[];
  readonly globalGuards?: readonly string[];
  readonly guards?: Readonly<Record<string, RouteGuard>>;
  /**
   * The page a prerendered document already shows, with the data it was built with: the app boots straight
   * into it (settled, nothing to load) so that React can hydrate the HTML as it is.
   */
  readonly initial?: BootPage;
}

export interface AppContext {
  readonly appName: string;
  readonly limits: NavigationLimits;
  readonly timing: AppTiming;
  readonly routes: readonly RouteRecord[];
  readonly globalGuards: readonly string[];
  readonly guards: Readonly<Record<string, RouteGuard>>;
  readonly session: 'unknown' | 'signedIn' | 'signedOut';
  readonly pending: PendingNavigation | null;
  readonly current: CommittedNavigation | null;
  readonly error: AppError | null;
  readonly visitor: 'unknown' | 'human' | 'crawler';
  readonly build: { readonly id: string; readonly latestId: string | null; readonly failedChecks: number };
  readonly routeRules: RouteRuleTable | null;
  /** The paths the build prerendered (from the manifest), whose data a navigation reads from `_payload.json`. */
  readonly prerendered: readonly string[] | null;
  readonly page: { readonly visible: boolean; readonly online: boolean };
}

export interface LoadPageInput {
  readonly route: RouteName;
  readonly params: Readonly<Record<string, string>>;
  readonly fullPath: string;
  /** The page was prerendered by this build: its data may come from `_payload.json` instead of the loader. */
  readonly payload?: { readonly path: string; readonly buildId: string };
}

export interface LoadedPage {
  readonly data: unknown;
  /** The page's own title from its data (a campaign's name); the route table's title otherwise. */
  readonly title?: string | undefined;
  /** The data is the build's (a payload), not the loader's. */
  readonly fromPayload?: boolean;
}

/** The page on screen, whose data is loaded again (from its loader, never a payload). */
export interface RevalidateInput {
  readonly route: RouteName;
  readonly params: Readonly<Record<string, string>>;
  readonly fullPath: string;
}

/** Where the browser is told to warm the payloads of the prerendered pages its links point to. */
export interface PayloadPreload {
  readonly prerendered: readonly string[];
  readonly buildId: string;
}

/** What the reload guard says: reload now, not again so soon, or no way to remember (so never). */
export type ReloadClaim = 'granted' | 'denied' | 'unavailable';

export function pendingOf(context: AppContext): PendingNavigation {
  if (context.pending === null) throw new Error('No navigation is pending.');
  return context.pending;
}

function placeholder(name: string): never {
  throw new Error(`${name} is not provided`);
}

const loadPagePlaceholder = fromPromise<LoadedPage, LoadPageInput>(async () => placeholder('loadPage'));

/** The logic the `loadPage` actor must be provided with (src/pages/registry.ts in the browser). */
export type AppPageLoader = typeof loadPagePlaceholder;

const revalidatePagePlaceholder = fromPromise<LoadedPage, RevalidateInput>(async () =>
  placeholder('revalidatePage'),
);

/** The logic the `revalidatePage` actor must be provided with (src/pages/registry.ts in the browser). */
export type AppPageRevalidator = typeof revalidatePagePlaceholder;

export const appSetup = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    input: {} as AppInput,
  },
  actors: {
    session: sessionMachine,
    toaster: toasterMachine,
    colorMode: colorModeMachine,
    /** Reports back/forward steps, and the first location too unless the app booted on a page already. */
    listenToHistory: fromCallback<AppEvent, { reportStart: boolean }>(() => placeholder('listenToHistory')),
    watchPage: fromCallback<AppEvent>(() => placeholder('watchPage')),
    loadPage: loadPagePlaceholder,
    revalidatePage: revalidatePagePlaceholder,
    detectCrawler: fromPromise<boolean>(async () => placeholder('detectCrawler')),
    fetchManifest: fromPromise<unknown, { buildId: string }>(async () => placeholder('fetchManifest')),
    fetchLatestBuild: fromPromise<unknown>(async () => placeholder('fetchLatestBuild')),
    claimReload: fromPromise<ReloadClaim, { path: string }>(async () => placeholder('claimReload')),
  },
  actions: {
    updateAddressBar: (_, _params: AddressBarUpdate | null) => placeholder('updateAddressBar'),
    loadDocument: (_, _params: { url: string }) => placeholder('loadDocument'),
    logSuppressedError: (_, _params: { error: AppError }) => placeholder('logSuppressedError'),
    reportRejectedTarget: (_, _params: { to: string }) => placeholder('reportRejectedTarget'),
    logManifestFetchError: (_, _params: { error: unknown }) => placeholder('logManifestFetchError'),
    logManifestMatcherError: (_, _params: { manifest: unknown }) => placeholder('logManifestMatcherError'),
    notifyUpdateAvailable: () => placeholder('notifyUpdateAvailable'),
    showDocumentTitle: (_, _params: { title: string }) => placeholder('showDocumentTitle'),
    arriveAtPage: (_, _params: { title: string }) => placeholder('arriveAtPage'),
    /** Warm the `_payload.json` of the prerendered pages that the links on screen point to. */
    preloadPayloads: (_, _params: PayloadPreload) => placeholder('preloadPayloads'),
    assignSession: assign({
      session: ({ event }) => (event.type === 'session.changed' && event.signedIn ? 'signedIn' : 'signedOut'),
    }),
    beginNavigation: assign({
      pending: ({ event }) => {
        if (event.type === 'nav.go') return beginNavigation(event.to, event.replace ? 'replace' : 'push');
        if (event.type === 'nav.popped') return beginNavigation(event.to, 'pop');
        return null;
      },
    }),
    beginRefresh: assign({
      pending: ({ context }) =>
        context.current ? beginNavigation(context.current.fullPath, 'replace') : null,
    }),
    matchPending: assign({ pending: ({ context }) => withMatch(pendingOf(context), context.routes) }),
    checkGuards: assign({
      pending: ({ context }) => {
        const pending = pendingOf(context);
        const names = guardNamesFor(pending, context.globalGuards);
        return withVerdict(
          pending,
          names,
          context.guards,
          context.session === 'signedIn',
          context.routeRules,
        );
      },
    }),
    followRedirect: assign({ pending: ({ context }) => followRedirect(pendingOf(context)) }),
    followFragment: assign({
      current: ({ context, event }) =>
        (event.type === 'nav.popped' ? fragmentStep(context.current, event.to) : null) ?? context.current,
    }),
    rememberFailure: assign(({ context }, params: { error: AppError }) => ({
      pending: { ...pendingOf(context), failure: params.error },
    })),
    /** Puts what the navigation loaded (or, on failure, nothing) on screen. */
    commit: assign(({ context }, params: { page: LoadedPage; failed: boolean }) => ({
      current: committed(
        pendingOf(context),
        context.current,
        params.page,
        params.failed,
        params.page.fromPayload ?? false,
      ),
      pending: null,
    })),
    /** Fresh data for the page on screen, in place: same key, so nothing moves focus or announces. */
    refreshData: assign(({ context }, params: { page: LoadedPage }) => ({
      current: context.current
        ? {
            ...context.current,
            data: params.page.data,
            title: params.page.title ?? context.current.title,
            stale: false,
          }
        : null,
    })),
    markFresh: assign(({ context }) => ({
      current: context.current ? { ...context.current, stale: false } : null,
    })),
    /**
     * The page on screen no longer exists (its data answered 404 when checked again): the error page, as a
     * navigation to it would have ended, counted as a new page so the view moves focus and announces it.
     */
    commitGone: assign(({ context }) => ({
      current: context.current
        ? {
            ...context.current,
            route: null,
            params: {},
            data: undefined,
            stale: false,
            key: context.current.key + 1,
          }
        : null,
    })),
    /** The error page goes up for a failure and down for a success. */
    announceOutcome: raise((_, params: { error: AppError | null }) =>
      params.error
        ? { type: 'error.raised' as const, error: params.error }
        : { type: 'error.cleared' as const },
    ),
    clearPending: assign({ pending: null }),
    /**
     * The server answered 401 to a page's data: the session has ended. The session child is told (it signs
     * out and says so with a toast), and `forgetSession` stops counting on it at once, so the guards that run
     * again send the user to sign in, with return-to.
     */
    endSession: sendTo('session', { type: 'session.expired' } satisfies SessionEvent),
    forgetSession: assign({ session: 'signedOut' as const }),
    /** Tells the colour-mode child what the page on screen forces, so a forced page paints in its mode. */
    notifyColorMode: sendTo(
      'colorMode',
      ({ context }): ColorModeEvent => ({
        type: 'route.forced',
        mode: context.current?.route
          ? (findRoute(context.current.route, context.routes).colorMode ?? null)
          : null,
      }),
    ),
    assignError: assign({ error: ({ event }) => (event.type === 'error.raised' ? event.error : null) }),
    clearError: assign({ error: null }),
    assignPage: assign({
      page: ({ context, event }) =>
        event.type === 'page.changed' ? { visible: event.visible, online: event.online } : context.page,
    }),
    assignRules: assign((_, params: { manifest: unknown }) => {
      const manifest = parseManifest(params.manifest);
      return { routeRules: manifest?.rules ?? null, prerendered: manifest?.prerendered ?? null };
    }),
    assignLatestBuild: assign(({ context }, params: { latest: unknown }) => ({
      build: { ...context.build, latestId: parseLatestBuild(params.latest)?.id ?? null, failedChecks: 0 },
    })),
    countFailedCheck: assign({
      build: ({ context }) => ({ ...context.build, failedChecks: context.build.failedChecks + 1 }),
    }),
  },
  guards: {
    isAppPath: ({ event }) => (event.type === 'nav.go' || event.type === 'nav.popped') && isAppPath(event.to),
    /** Signed in became signed out, or the other way round, with a page on screen. */
    isSessionFlip: ({ context, event }) =>
      event.type === 'session.changed' &&
      context.current !== null &&
      event.signedIn !== (context.session === 'signedIn'),
    isFragmentStep: ({ context, event }) =>
      event.type === 'nav.popped' &&
      context.pending === null &&
      fragmentStep(context.current, event.to) !== null,
    isSessionKnown: ({ context }) => context.session !== 'unknown',
    /** The app booted on a prerendered page: nothing to navigate to first. */
    hasPage: ({ context }) => context.current !== null,
    /** The page on screen shows build-time data that its route wants checked, and no navigation is replacing it. */
    isPageStale: ({ context }) => context.current?.stale === true && context.pending === null,
    isNavigating: ({ context }) => context.pending !== null,
    isGone: (_, { error }: { error: unknown }) =>
      typeof error === 'object' && error !== null && (error as { statusCode?: unknown }).statusCode === 404,
    /** Rules apply once the manifest has loaded or failed; the first navigation never waits (the server applied them). */
    canApplyRules: or([
      ({ context }) => context.current === null,
      stateIn('#app.build.manifest.ready'),
      stateIn('#app.build.manifest.failed'),
    ]),
    hasGuardFailure: ({ context }) => context.pending?.failure != null,
    isRedirect: ({ context }) => context.pending?.verdict?.type === 'redirect',
    isRedirectAllowed: ({ context }) =>
      context.pending !== null &&
      context.pending.redirects < context.limits.maxRedirects &&
      followRedirect(context.pending) !== null,
    isAborted: ({ context }) => context.pending?.verdict?.type === 'abort',
    isInvalid: ({ context }) => validateError(pendingOf(context), context.limits) !== null,
    /** A page (not the first, which keeps the browser's own focus) is what the navigation settled on. */
    isLaterPage: ({ context }) => context.current?.route != null && !isFirstSettle(context),
    isKnownCrawler: ({ context }) => context.visitor === 'crawler',
    isKnownHuman: ({ context }) => context.visitor === 'human',
    isCrawler: (_, isCrawler: boolean) => isCrawler,
    /** A page's data answered 401 while the app counted on a session: it ended on the server. */
    isSessionExpired: ({ context }, { error }: { error: unknown }) =>
      context.session === 'signedIn' && isUnauthorized(error),
    isChunkError: (_, { error }: { error: unknown }) =>
      typeof error === 'object' && error !== null && (error as { kind?: unknown }).kind === 'chunk',
    isNewerBuild: ({ context }, { latest }: { latest: unknown }) => {
      const build = parseLatestBuild(latest);
      return build !== null && build.id !== context.build.id;
    },
    isSameBuild: ({ context }, { latest }: { latest: unknown }) =>
      parseLatestBuild(latest)?.id === context.build.id,
    isValidManifest: (_, { manifest }: { manifest: unknown }) => parseManifest(manifest) !== null,
    isReloadGranted: (_, claim: ReloadClaim) => claim === 'granted',
    /** The page is worth polling for: the tab is visible and online (after the event, when it is one). */
    isPageActive: ({ context, event }) =>
      event.type === 'page.changed'
        ? event.visible && event.online
        : context.page.visible && context.page.online,
    isSlowConnection: () => placeholder('isSlowConnection guard'),
    /** An update is waiting and this is not the first load: the navigation becomes a document load. */
    shouldReloadForUpdate: and([
      stateIn('#app.build.updates.updatePending'),
      ({ context }) => context.current !== null,
    ]),
  },
  delays: {
    slowNavigation: ({ context }) => context.timing.slowNavigationMs,
    manifestPreload: ({ context }) => context.timing.manifestPreloadMs,
    updateRecheckThrottle: ({ context }) => context.timing.updateRecheckThrottleMs,
    /** Hourly; after failed checks it backs off (doubling), never beyond the maximum. */
    nextUpdateCheck: ({ context }) =>
      Math.min(
        context.timing.updateCheckIntervalMs * 2 ** context.build.failedChecks,
        context.timing.maxUpdateCheckIntervalMs,
      ),
  },
});
