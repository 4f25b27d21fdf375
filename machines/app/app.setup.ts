/**
 * The app machine's vocabulary: its events and context (with the navigation's values: the pending and the
 * committed navigation, an arrival, a route guard), its actors, and the few actions and guards that more than
 * one region names. Each region (app.navigation.ts, app.build.ts, app.errors.ts, app.freshness.ts) adds its own actions, guards and delays with `appSetup.extend`;
 * app.machine.ts joins them. Effects are placeholders that fail loudly: src/platform/ provides the real ones,
 * tests provide fakes.
 */
import { fromCallback, fromPromise, type ParameterizedObject, raise, sendTo, setup } from 'xstate';
import { placeholder } from '../../core/placeholder';
import { parseLatestBuild, type RouteRuleTable } from '../../core/routeRules';
import type { AppLocation, RouteMatch, RouteName, RouteRecord } from '../../core/routes';
import { colorModeMachine } from '../colorMode/colorMode.machine';
import {
  isUnauthorized,
  type SessionEvent,
  type SessionReport,
  sessionMachine,
} from '../session/session.machine';
import { toasterMachine } from '../toast/toaster.machine';
import type { AppError } from './errorCatalogue';

/** How the browser's address bar learns about a navigation. */
export type HistoryIntent = 'push' | 'replace' | 'pop';

export interface PendingNavigation {
  readonly to: AppLocation;
  readonly intent: HistoryIntent;
  /** Where the navigation first pointed, before any redirect. */
  readonly original: string;
  readonly redirects: number;
  readonly match: RouteMatch | null;
  readonly verdict: GuardVerdict | null;
  readonly failure: AppError | null;
}

/** What is on screen: the location, the route it matched and the data its page loaded. */
export interface CommittedNavigation {
  readonly location: AppLocation;
  readonly fullPath: string;
  readonly route: RouteName | null;
  readonly params: Readonly<Record<string, string>>;
  readonly data: unknown;
  /** The page's title, from its data or the route table; none when the navigation ended on an error. */
  readonly title: string | null;
  /** Increases with every settled navigation, so the view knows when to move focus and announce. */
  readonly key: number;
  /** The data came from the build (a prerendered page's payload) and the route wants it checked again. */
  readonly stale: boolean;
  /** The data is the build's (a payload, or the prerendered HTML it booted on), not the loader's. */
  readonly fromBuild: boolean;
  /**
   * How the browser got to this entry: a new one (`push`), in place of the last (`replace`), or a step
   * back or forward (`pop`, the first location included). Page arrival reads it: a step back returns to
   * where the visitor was, anything else starts at the top.
   */
  readonly via: HistoryIntent;
}

export interface NavigationLimits {
  readonly maxRedirects: number;
  readonly maxEchoedPathLength: number;
  /** Pages left behind whose data is kept, so that Back or Forward to them shows them at once. */
  readonly maxRememberedPages: number;
}

/** What the address bar needs (see `addressBarUpdate` in app.navigation.ts). */
export interface AddressBarUpdate {
  readonly type: 'push' | 'replace';
  readonly to: string;
}

/** A prerendered page the app starts on: where the browser is, and the data the HTML was built with. */
export interface BootPage {
  readonly fullPath: string;
  readonly data: unknown;
  /** The page's own title from that data (a campaign's name); the route table's otherwise. */
  readonly title?: string | undefined;
}

/**
 * How a page (or an error page) came on screen, which decides where the window scrolls and where focus goes
 * (src/platform/arrival.ts): the document's first page keeps what the browser did (a reload's position, a
 * `#fragment` target, given focus); a step back or forward returns to where the visitor was; anything else is
 * a new page, which starts at the top, or at its `#fragment`, and is announced.
 */
export type ArrivalKind = 'first' | 'new' | 'return';

export interface Arrival {
  /** The document title, which the live region announces on a page after the first. */
  readonly title: string;
  readonly kind: ArrivalKind;
  /** The location's `#fragment` (with its `#`), or `''`. */
  readonly hash: string;
}

/** A move to a `#fragment` of the page on screen: to its target, or back to where a step back/forward was. */
export interface FragmentArrival {
  readonly kind: 'new' | 'return';
  readonly hash: string;
}

/** What a guard sees: the target, the route it matched (if any), whether a session exists, the build's rules. */
export interface GuardInput {
  readonly to: AppLocation;
  readonly match: RouteMatch | null;
  readonly signedIn: boolean;
  /** The route rules of the build manifest, once it has loaded; `null` before, or when it failed. */
  readonly rules?: RouteRuleTable | null;
}

/** A guard lets the navigation through, sends it elsewhere, or stops it where it is. */
export type GuardVerdict =
  | { readonly type: 'allow' }
  | { readonly type: 'redirect'; readonly to: string }
  | { readonly type: 'abort' };

export type RouteGuard = (input: GuardInput) => GuardVerdict;

export type AppEvent =
  /** From a link or from code: open this app path. */
  | { type: 'nav.go'; to: string; replace?: boolean }
  /** From the browser: the first location, or a back/forward step. */
  | { type: 'nav.popped'; to: string }
  /** From the browser: the tab's visibility or the connection changed (and once at start). */
  | { type: 'page.changed'; visible: boolean; online: boolean }
  /** From the browser: the page came back from the back/forward cache, as it was when left. */
  | { type: 'page.restored' }
  | SessionReport
  | { type: 'error.raised'; error: AppError }
  /** Raised by the navigation that put a page on screen (not an error page): it has arrived. */
  | { type: 'page.settled' }
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
  /**
   * Pages left behind (oldest first, at most `limits.maxRememberedPages`), with the data they were last drawn
   * with: Back or Forward to one shows it at once, then checks it again.
   */
  readonly remembered: readonly CommittedNavigation[];
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
  // Stryker disable next-line ConditionalExpression: Unreachable: every caller runs in a navigation state (resolving to leaving) that is only entered with a pending navigation. `beginNavigation` runs behind `isAppPath` (a parsable target), `beginRefresh` behind `isSessionFlip` (a page on screen), and only `commit` and `clearPending` clear it, each on the way to idle.
  // Stryker disable next-line StringLiteral: The message of the throw in `pendingOf`, which is unreachable (a pending navigation exists in every state that calls it); it would only be a developer-facing text anyway.
  if (context.pending === null) throw new Error('No navigation is pending.');
  return context.pending;
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
  // Stryker disable next-line ObjectLiteral: A type-only declaration: `setup({ types })` is read by TypeScript, never at run time, so the machine behaves the same without it.
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
  // What several regions name; each region's own actions, guards and delays are in its file.
  actions: {
    updateAddressBar: (_, _params: AddressBarUpdate | null) => placeholder('updateAddressBar'),
    showDocumentTitle: (_, _params: { title: string }) => placeholder('showDocumentTitle'),
    arriveAtPage: (_, _params: Arrival) => placeholder('arriveAtPage'),
    arriveAtFragment: (_, _params: FragmentArrival) => placeholder('arriveAtFragment'),
    /**
     * The server answered 401 to a page's data (loaded, or checked again): the session has ended. The session
     * child is told; it signs out, says so with a toast, and reports it, so the guards run again.
     */
    endSession: sendTo('session', { type: 'session.expired' } satisfies SessionEvent),
    /** The error page goes up for a failure and down for a success. */
    announceOutcome: raise((_, params: { error: AppError | null }) =>
      params.error
        ? { type: 'error.raised' as const, error: params.error }
        : { type: 'page.settled' as const },
    ),
  },
  guards: {
    /** A page's data answered 401 while the app counted on a session: it ended on the server. */
    isSessionExpired: ({ context }, { error }: { error: unknown }) =>
      context.session === 'signedIn' && isUnauthorized(error),
    isNewerBuild: ({ context }, { latest }: { latest: unknown }) => {
      const build = parseLatestBuild(latest);
      return build !== null && build.id !== context.build.id;
    },
  },
});

type ParamsMap = Record<string, ParameterizedObject['params'] | undefined>;

/**
 * A region's own actions, guards and delays, typed against the app's context and events as `appSetup.extend`
 * types them, so that the region can extend with them and app.machine.ts can join every region's.
 */
export function regionImplementations<
  TActions extends ParamsMap = Record<never, never>,
  TGuards extends ParamsMap = Record<never, never>,
  TDelays extends string = never,
>(implementations: Parameters<typeof appSetup.extend<TActions, TGuards, TDelays>>[0]) {
  return implementations;
}
