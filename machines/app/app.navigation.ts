/**
 * The navigation region: every location change is matched, guarded, validated and loaded before the URL
 * commits, and the page that a navigation settles on arrives: its title, and for each page after the first
 * (which keeps the browser's own focus, as a document load does) focus, scroll and an announcement. A step
 * back or forward to a page left a moment ago shows it at once with the data it was drawn with (the
 * freshness region then checks it again), and returns to where the visitor was on it; a link to a
 * `#fragment` of the page on screen only moves there.
 *
 * Read top to bottom: the region's actions and guards, its setup, the steps its states share, its recoveries (a
 * chunk that fails to load, a pending update), the region itself; then the pure navigation model they call (match,
 * guards, validate, commit, pages kept for Back, title and arrival) and the route guards.
 */
import { and, assign, or, raise, sendTo, stateIn } from 'xstate';
import { isPrerendered } from '../../core/payload';
import { placeholder } from '../../core/placeholder';
import { loginPathFor, RETURN_TO_PARAM, safeReturnTo } from '../../core/returnTo';
import { type RouteRuleTable, rulesFor } from '../../core/routeRules';
import {
  type AppLocation,
  findRoute,
  matchRoute,
  parseLocation,
  type RouteRecord,
  readQuery,
  toFullPath,
} from '../../core/routes';
import type { ColorModeEvent } from '../colorMode/colorMode.machine';
import type { SessionEvent } from '../session/session.machine';
import {
  type AddressBarUpdate,
  type AppContext,
  type Arrival,
  type ArrivalKind,
  appSetup,
  type BootPage,
  type CommittedNavigation,
  type GuardInput,
  type GuardVerdict,
  type HistoryIntent,
  type LoadedPage,
  type NavigationLimits,
  type PendingNavigation,
  pendingOf,
  type ReloadClaim,
  type RouteGuard,
  regionImplementations,
} from './app.setup';
import {
  type AppError,
  notFoundError,
  statusMessageOf,
  toAppError,
  tooManyRedirectsError,
  unknownGuardError,
  unsafeRedirectError,
  validationError,
} from './errorCatalogue';

export const navigationImplementations = regionImplementations({
  actions: {
    reportRejectedTarget: (_, _params: { to: string }) => placeholder('reportRejectedTarget'),
    /**
     * Pages kept for Back were drawn with what the old session could see (a signed-in home page's campaigns):
     * a different session starts with none.
     */
    assignSession: assign(({ context, event }) => {
      // Stryker disable next-line ConditionalExpression: `assignSession` is only run by `session.changed` transitions (the navigation region, `idle`, `awaiting`), so the event-type narrowing is always true where it runs.
      const session = event.type === 'session.changed' && event.signedIn ? 'signedIn' : 'signedOut';
      return { session, remembered: session === context.session ? context.remembered : [] };
    }),
    beginNavigation: assign({
      pending: ({ event }) => {
        if (event.type === 'nav.go') return beginNavigation(event.to, event.replace ? 'replace' : 'push');
        // Stryker disable next-line ConditionalExpression: `beginNavigation` only runs on `nav.go` and `nav.popped`; `nav.go` returns on the line above, so on this line the event is always `nav.popped`.
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
      current: ({ context, event }) => fragmentMove(context.current, event) ?? context.current,
    }),
    /** A back/forward step to a page kept in memory: it is on screen at once, and the page it leaves is kept. */
    commitRemembered: assign(({ context }) => {
      const pending = pendingOf(context);
      const page = rememberedFor(context.remembered, pending);
      if (!page) throw new Error('No page is kept for this step.');
      return {
        current: revisited(page, pending, context.current),
        remembered: remember(
          context.remembered,
          context.current,
          pending.to,
          context.limits.maxRememberedPages,
        ),
        pending: null,
      };
    }),
    /** The page came back from the back/forward cache: the session may have changed meanwhile (another tab). */
    recheckSession: sendTo('session', { type: 'session.recheck' } satisfies SessionEvent),
    rememberFailure: assign(({ context }, params: { error: AppError }) => ({
      pending: { ...pendingOf(context), failure: params.error },
    })),
    clearPending: assign({ pending: null }),
    /** Puts what the navigation loaded (or, on failure, nothing) on screen; the page it leaves is kept. */
    commit: assign(({ context }, params: { page: LoadedPage; failed: boolean }) => ({
      current: committed(
        pendingOf(context),
        context.current,
        params.page,
        params.failed,
        params.page.fromPayload ?? false,
      ),
      remembered: remember(
        context.remembered,
        context.current,
        pendingOf(context).to,
        context.limits.maxRememberedPages,
      ),
      pending: null,
    })),
    /**
     * With `endSession` (app.setup.ts), after a 401 to a page's data: stops counting on the session at once, so
     * the guards that run again send the user to sign in, with return-to.
     */
    forgetSession: assign({ session: 'signedOut' as const, remembered: [] }),
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
  },
  guards: {
    // Stryker disable next-line ConditionalExpression: `isAppPath` is only a guard of the `nav.go` and `nav.popped` transitions, so the event-type check is always true where it is evaluated.
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
    isFragmentLink: ({ context, event }) =>
      event.type === 'nav.go' && context.pending === null && fragmentLink(context.current, event.to) !== null,
    /** A back/forward step to a page kept in memory, of the route it matched. */
    isRemembered: ({ context }) =>
      // Stryker disable next-line ConditionalExpression: `isRedirectAllowed` is only evaluated by `guarding`'s eventless transitions, where a pending navigation always exists (the state is entered from `resolving`, whose entry reads `pendingOf`).
      context.pending !== null && rememberedFor(context.remembered, context.pending) !== null,
    isSessionKnown: ({ context }) => context.session !== 'unknown',
    /** The app booted on a prerendered page: nothing to navigate to first. */
    hasPage: ({ context }) => context.current !== null,
    /** Rules apply once the manifest has loaded or failed; the first navigation never waits (the server applied them). */
    canApplyRules: or([
      ({ context }) => context.current === null,
      stateIn('#app.build.manifest.ready'),
      stateIn('#app.build.manifest.failed'),
    ]),
    // Stryker disable next-line OptionalChaining: `hasGuardFailure` is only evaluated by `guarding`'s eventless transitions, and `guarding` is only entered with a pending navigation (it comes from `resolving`, whose entry already reads `pendingOf`), so `context.pending` is never null there.
    hasGuardFailure: ({ context }) => context.pending?.failure != null,
    // Stryker disable next-line OptionalChaining: Only evaluated in `guarding` after `hasGuardFailure` was false: `checkGuards` (`withVerdict`) sets either a verdict or a failure, so with no failure the verdict, like the pending navigation, is never null there.
    isRedirect: ({ context }) => context.pending?.verdict?.type === 'redirect',
    isRedirectAllowed: ({ context }) =>
      context.pending !== null &&
      context.pending.redirects < context.limits.maxRedirects &&
      followRedirect(context.pending) !== null,
    isAborted: ({ context }) => context.pending?.verdict?.type === 'abort',
    isInvalid: ({ context }) => validateError(pendingOf(context), context.limits) !== null,
    /** A page (not an error page) is what the navigation settled on. */
    isPageOnScreen: ({ context }) => context.current?.route != null,
    isChunkError: (_, { error }: { error: unknown }) =>
      typeof error === 'object' && error !== null && (error as { kind?: unknown }).kind === 'chunk',
    /** An update is waiting and this is not the first load: the navigation becomes a document load. */
    shouldReloadForUpdate: and([
      stateIn('#app.build.updates.updatePending'),
      ({ context }) => context.current !== null,
    ]),
  },
  delays: {
    slowNavigation: ({ context }) => context.timing.slowNavigationMs,
  },
});

export const recoveryImplementations = regionImplementations({
  actions: {
    loadDocument: (_, _params: { url: string }) => placeholder('loadDocument'),
  },
  guards: {
    isReloadGranted: (_, claim: ReloadClaim) => claim === 'granted',
  },
});

/** The navigation region's setup (its recoveries' included); app.machine.ts extends it. */
export const navigationSetup = appSetup.extend(recoveryImplementations).extend(navigationImplementations);

/** Where a fragment link or a back/forward step over fragments puts the page on screen; `null` if it is no such move. */
function fragmentMove(
  current: CommittedNavigation | null,
  event: { type: string; to?: string },
): CommittedNavigation | null {
  if (event.type === 'nav.go' && event.to !== undefined) return fragmentLink(current, event.to);
  if (event.type === 'nav.popped' && event.to !== undefined) return fragmentStep(current, event.to);
  return null;
}

/** The hash the page on screen moved to (read after `followFragment`). */
const fragmentArrival =
  (kind: 'new' | 'return') =>
  ({ context }: { context: AppContext }) => ({ kind, hash: context.current?.location.hash ?? '' });

/** A back/forward step that a guard stopped: the address bar goes back to what the screen shows. */
const restoreParams = ({ context }: { context: AppContext }) =>
  // Stryker disable next-line OptionalChaining: `restoreParams` only runs in `guarding`'s `isAborted` branch, before `clearPending`, when a pending navigation always exists, so the optional chaining is never used.
  context.pending?.intent === 'pop' && context.current
    ? { type: 'replace' as const, to: context.current.fullPath }
    : null;

/** A 401 for the page's data: the session ended, so run the guards again (auth sends the user to sign in). */
const sessionExpired = {
  guard: {
    type: 'isSessionExpired',
    params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
  },
  target: 'resolving',
  actions: ['endSession', 'forgetSession'],
} as const;

/**
 * Pieces of transitions that the region's states and its recoveries share: the inputs of the page loader and
 * the reload guard, and the actions that settle a navigation on a page or on an error page.
 */
export const addressBarParams = ({ context }: { context: AppContext }) =>
  addressBarUpdate(pendingOf(context), context.current);

export const targetOf = ({ context }: { context: AppContext }) => ({
  path: toFullPath(pendingOf(context).to),
});

type Args = { context: AppContext; event: unknown };

/** Settle on an error page: the failed target's URL goes in the address bar, so Back returns from it. */
export function failWith(error: (args: Args) => AppError | null) {
  // The error is read before `commit` clears the pending navigation; a raised event is handled after this step anyway.
  return [
    { type: 'updateAddressBar', params: addressBarParams },
    { type: 'announceOutcome', params: (args: Args) => ({ error: error(args) }) },
    { type: 'commit', params: { page: { data: undefined }, failed: true } },
  ] as const;
}

export const loadInput = ({ context }: { context: AppContext }) => {
  const pending = pendingOf(context);
  // Stryker disable next-line StringLiteral: The message of the unreachable throw in `loadInput` (a loaded navigation always has a match); a developer-facing text only.
  if (!pending.match) throw new Error('Only a matched route can be loaded.');
  const input = {
    route: pending.match.route.name,
    params: pending.match.params,
    fullPath: toFullPath(pending.to),
  };
  // A payload is the path's alone: a page with a query (`/?after=…`) asks its loader.
  return pending.to.search === '' && isPrerendered(pending.to.pathname, context.prerendered)
    ? { ...input, payload: { path: pending.to.pathname, buildId: context.build.id } }
    : input;
};

export const commitLoaded = [
  { type: 'updateAddressBar', params: addressBarParams },
  { type: 'announceOutcome', params: { error: null } },
  {
    type: 'commit',
    params: ({ event }: { event: { output: LoadedPage } }) => ({ page: event.output, failed: false }),
  },
] as const;

export const loadFailure = ({ context, event }: { context: AppContext; event: unknown }) =>
  toAppError((event as { error?: unknown }).error, toFullPath(pendingOf(context).to));

/** The title of what is on screen when no error page is up (a page, or nothing yet). */
export const titleOnScreen = ({ context }: { context: AppContext }) => ({
  title: documentTitleOf(context, null),
});

/** How the page on screen arrives (first, new, or returned to), with its title. */
export const arrivalOnScreen = ({ context }: { context: AppContext }) =>
  arrivalOf(context, documentTitleOf(context, null));

/**
 * The region's recoveries: a page chunk that fails to load (a newer build reloads the page, once per path per
 * reload-guard window; the same build retries the import once), and a pending update that turns the next
 * navigation into a document load. The region places these states beside its own.
 */
export const recoveryStates = {
  /** A newer build exists: load this navigation's target as a document, unless the reload guard says not again. */
  reloadingForUpdate: navigationSetup.createStateConfig({
    tags: ['busy'],
    invoke: {
      id: 'claimUpdateReload',
      src: 'claimReload',
      input: targetOf,
      onDone: [
        { guard: { type: 'isReloadGranted', params: ({ event }) => event.output }, target: 'leaving' },
        { target: 'loading' },
      ],
      onError: { target: 'loading' },
    },
  }),
  /** A page chunk failed: ask which build is current before deciding between a reload and a retry. */
  recovering: navigationSetup.createStateConfig({
    tags: ['busy'],
    invoke: {
      id: 'checkBuildAfterChunkError',
      src: 'fetchLatestBuild',
      onDone: [
        {
          guard: { type: 'isNewerBuild', params: ({ event }) => ({ latest: event.output }) },
          target: 'claimingReload',
        },
        { target: 'retrying' },
      ],
      onError: { target: 'retrying' },
    },
  }),
  /** The same build (or no answer): the chunk should still exist, so try the import once more. */
  retrying: navigationSetup.createStateConfig({
    tags: ['busy'],
    invoke: {
      id: 'retryPage',
      src: 'loadPage',
      input: loadInput,
      onDone: { target: 'idle', actions: commitLoaded },
      onError: { target: 'idle', actions: failWith(loadFailure) },
    },
  }),
  /** A newer build: reload the target, at most once per path per window; otherwise the error page. */
  claimingReload: navigationSetup.createStateConfig({
    tags: ['busy'],
    invoke: {
      id: 'claimChunkReload',
      src: 'claimReload',
      input: targetOf,
      onDone: [
        { guard: { type: 'isReloadGranted', params: ({ event }) => event.output }, target: 'leaving' },
        { target: 'idle', actions: failWith(({ context }) => pendingOf(context).failure) },
      ],
      onError: { target: 'idle', actions: failWith(({ context }) => pendingOf(context).failure) },
    },
  }),
  /** The document is being replaced; nothing more happens here. */
  leaving: navigationSetup.createStateConfig({
    tags: ['busy'],
    entry: { type: 'loadDocument', params: ({ context }) => ({ url: toFullPath(pendingOf(context).to) }) },
  }),
};

export const navigationRegion = navigationSetup.createStateConfig({
  initial: 'booting',
  on: {
    // No `reenter`: re-entering this region would also reset its siblings, such as the error page.
    'nav.go': [
      // A link to a #fragment of the page on screen: a new address and a scroll, nothing to load or announce.
      {
        guard: 'isFragmentLink',
        actions: [
          {
            type: 'updateAddressBar',
            params: ({ context, event }) => {
              const step = fragmentLink(context.current, event.to);
              return step ? fragmentAddress(context.current, step) : null;
            },
          },
          'followFragment',
          { type: 'arriveAtFragment', params: fragmentArrival('new') },
        ],
      },
      { guard: 'isAppPath', target: '.resolving', actions: 'beginNavigation' },
      { actions: { type: 'reportRejectedTarget', params: ({ event }) => ({ to: event.to }) } },
    ],
    'nav.popped': [
      // Only the #fragment moved (an in-page link, or Back over one): same page, nothing to load or announce.
      {
        guard: 'isFragmentStep',
        actions: ['followFragment', { type: 'arriveAtFragment', params: fragmentArrival('return') }],
      },
      { guard: 'isAppPath', target: '.resolving', actions: 'beginNavigation' },
      { actions: { type: 'reportRejectedTarget', params: ({ event }) => ({ to: event.to }) } },
    ],
    'session.changed': { actions: 'assignSession' },
    'page.restored': { actions: 'recheckSession' },
    // The navigation settled on a page (its commit raised this): the page arrives. This region's actions
    // run before the errors region takes the error page down, which touches no effect.
    'page.settled': [
      {
        guard: 'isPageOnScreen',
        actions: [
          { type: 'showDocumentTitle', params: titleOnScreen },
          { type: 'arriveAtPage', params: arrivalOnScreen },
        ],
      },
      { actions: { type: 'showDocumentTitle', params: titleOnScreen } },
    ],
  },
  states: {
    // A prerendered page boots settled (hydration): straight to idle, nothing to load; it arrives as a
    // document's first page does (a reload's position, a #fragment's target).
    booting: {
      tags: ['booting'],
      always: {
        guard: 'hasPage',
        target: 'idle',
        actions: { type: 'arriveAtPage', params: arrivalOnScreen },
      },
    },
    // Every settled navigation (page, error page or aborted) ends here: the colour mode learns what it forces.
    idle: {
      entry: 'notifyColorMode',
      on: {
        // Who may see what has just changed: run the guards again for the page on screen.
        'session.changed': {
          guard: 'isSessionFlip',
          target: 'resolving',
          actions: ['assignSession', 'beginRefresh'],
        },
      },
    },
    resolving: {
      tags: ['busy'],
      entry: 'matchPending',
      always: [
        { guard: and(['isSessionKnown', 'canApplyRules']), target: 'guarding' },
        { guard: 'canApplyRules', target: 'awaiting' },
        { target: 'awaiting', actions: raise({ type: 'manifest.needed' }) },
      ],
    },
    /** Waiting for the session to be known, or for the build manifest whose rules the guards apply. */
    awaiting: {
      tags: ['busy'],
      on: {
        'session.changed': { target: 'resolving', actions: 'assignSession' },
        'manifest.settled': { target: 'resolving' },
      },
    },
    guarding: {
      tags: ['busy'],
      entry: 'checkGuards',
      always: [
        {
          guard: 'hasGuardFailure',
          target: 'idle',
          actions: failWith(({ context }) => pendingOf(context).failure),
        },
        { guard: 'isRedirectAllowed', target: 'resolving', reenter: true, actions: 'followRedirect' },
        {
          guard: 'isRedirect',
          target: 'idle',
          actions: failWith(({ context }) => redirectError(pendingOf(context), context.limits)),
        },
        {
          guard: 'isAborted',
          target: 'idle',
          actions: [{ type: 'updateAddressBar', params: restoreParams }, 'clearPending'],
        },
        { target: 'validating' },
      ],
    },
    validating: {
      tags: ['busy'],
      always: [
        {
          guard: 'isInvalid',
          target: 'idle',
          actions: failWith(({ context }) => validateError(pendingOf(context), context.limits)),
        },
        { guard: 'shouldReloadForUpdate', target: 'reloadingForUpdate' },
        // Back or Forward to a page left a moment ago: on screen at once, no loading (freshness checks it again).
        {
          guard: 'isRemembered',
          target: 'idle',
          actions: [
            { type: 'updateAddressBar', params: addressBarParams },
            { type: 'announceOutcome', params: { error: null } },
            'commitRemembered',
          ],
        },
        { target: 'loading' },
      ],
    },
    reloadingForUpdate: recoveryStates.reloadingForUpdate,
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: loadInput,
        onDone: { target: 'idle', actions: commitLoaded },
        onError: [
          sessionExpired,
          {
            guard: { type: 'isChunkError', params: ({ event }) => ({ error: event.error }) },
            target: 'recovering',
            actions: {
              type: 'rememberFailure',
              params: ({ context, event }) => ({ error: loadFailure({ context, event }) }),
            },
          },
          { target: 'idle', actions: failWith(loadFailure) },
        ],
      },
      initial: 'quick',
      states: {
        quick: { after: { slowNavigation: 'slow' } },
        slow: { tags: ['slow'] },
      },
    },
    recovering: recoveryStates.recovering,
    retrying: recoveryStates.retrying,
    claimingReload: recoveryStates.claimingReload,
    leaving: recoveryStates.leaving,
  },
});

// The navigation model: pure functions of the pending and the committed navigation, with no effects.

/** The page on screen at `target`'s `#fragment`, when `target` is the same page (path and query); else `null`. */
function onSamePage(current: CommittedNavigation | null, target: string): CommittedNavigation | null {
  const to = parseLocation(target);
  if (!current || !to || to.pathname !== current.location.pathname || to.search !== current.location.search)
    return null;
  return { ...current, location: to, fullPath: toFullPath(to) };
}

/** A step that only moves the `#fragment` on the page already shown: no navigation, just a new address. */
export function fragmentStep(
  current: CommittedNavigation | null,
  target: string,
): CommittedNavigation | null {
  const step = onSamePage(current, target);
  return step && step.location.hash !== current?.location.hash ? step : null;
}

/**
 * A link to a `#fragment` of the page on screen (the same fragment again included, which scrolls to it
 * again): the page stays, with nothing to load; only the address and the scroll position change.
 */
export function fragmentLink(
  current: CommittedNavigation | null,
  target: string,
): CommittedNavigation | null {
  const step = onSamePage(current, target);
  return step && step.location.hash !== '' ? step : null;
}

/** The address bar after a fragment link: a new entry for a new fragment, none for the one already there. */
export function fragmentAddress(
  current: CommittedNavigation | null,
  step: CommittedNavigation,
): AddressBarUpdate | null {
  return current?.fullPath === step.fullPath ? null : { type: 'push', to: step.fullPath };
}

export function isAppPath(target: string): boolean {
  return parseLocation(target) !== null;
}

export function beginNavigation(target: string, intent: HistoryIntent): PendingNavigation | null {
  const to = parseLocation(target);
  if (to === null) return null;
  return { to, intent, original: toFullPath(to), redirects: 0, match: null, verdict: null, failure: null };
}

export function withMatch(pending: PendingNavigation, table: readonly RouteRecord[]): PendingNavigation {
  return { ...pending, match: matchRoute(pending.to.pathname, table), verdict: null, failure: null };
}

export function withVerdict(
  pending: PendingNavigation,
  names: readonly string[],
  registry: Readonly<Record<string, RouteGuard>>,
  signedIn: boolean,
  rules: RouteRuleTable | null,
): PendingNavigation {
  try {
    const verdict = runGuards(names, registry, { to: pending.to, match: pending.match, signedIn, rules });
    return { ...pending, verdict };
  } catch (error) {
    const failure =
      error instanceof UnknownGuardError
        ? unknownGuardError(error.guard)
        : toAppError(error, toFullPath(pending.to));
    return { ...pending, failure };
  }
}

/** Global guards first, then the route's own, without repeats. */
export function guardNamesFor(pending: PendingNavigation, global: readonly string[]): string[] {
  // Stryker disable next-line OptionalChaining: Only read when the navigation did not fail, and a committed success always has a match: `commit` with `failed: false` runs after `loading`/`retrying`, reached only through `validating` where a null match is the 404 failure, and `bootPage` returns early without a match.
  return [...new Set([...global, ...(pending.match?.route.guards ?? [])])];
}

/** The redirect target, or `null` when it is not a path in this app (then the navigation fails). */
export function followRedirect(pending: PendingNavigation): PendingNavigation | null {
  // Stryker disable next-line OptionalChaining: Every caller has a verdict: `isRedirectAllowed` and the `followRedirect` action run in `guarding` after `hasGuardFailure` was false (so `withVerdict` set a verdict), and `redirectError` calls it only after its own `verdict?.type === 'redirect'` check.
  if (pending.verdict?.type !== 'redirect') return null;
  const to = parseLocation(pending.verdict.to);
  if (to === null) return null;
  // A redirect replaces the entry of a first load or a back/forward step rather than adding one.
  const intent: HistoryIntent = pending.intent === 'push' ? 'push' : 'replace';
  return {
    ...pending,
    to,
    intent,
    redirects: pending.redirects + 1,
    match: null,
    verdict: null,
    failure: null,
  };
}

/** Why a redirect is not followed: it leaves the app, or the chain is too long. */
export function redirectError(pending: PendingNavigation, limits: NavigationLimits): AppError {
  // Stryker disable next-line OptionalChaining: `redirectError` is only called from `guarding`'s `isRedirect` branch, so the verdict is always a non-null redirect there and this check is always true.
  if (pending.verdict?.type === 'redirect' && followRedirect(pending) === null) {
    return unsafeRedirectError(pending.verdict.to, limits.maxEchoedPathLength);
  }
  return tooManyRedirectsError(pending.original, limits.maxEchoedPathLength, limits.maxRedirects);
}

export function validateError(pending: PendingNavigation, limits: NavigationLimits): AppError | null {
  const fullPath = toFullPath(pending.to);
  if (pending.match === null) return notFoundError(fullPath, limits.maxEchoedPathLength);
  const rule = pending.match.route.validate;
  if (!rule) return null;
  let result: ReturnType<typeof rule>;
  try {
    result = rule(pending.match);
  } catch {
    result = false;
  }
  return result === true ? null : validationError(fullPath, limits.maxEchoedPathLength, result);
}

/**
 * What the address bar needs: a new entry for a push; nothing for a first load or back/forward that
 * ended where the browser already is; a replacement otherwise. Pushing the path already shown would
 * only add a duplicate entry, so that becomes a replacement too.
 */
export function addressBarUpdate(
  pending: PendingNavigation,
  current: CommittedNavigation | null,
): AddressBarUpdate | null {
  const to = toFullPath(pending.to);
  // Stryker disable next-line StringLiteral: Unreachable (not covered): with a `pop` intent `to` always equals `pending.original` (a redirect, the only thing that changes `to`, also turns the intent into `replace`), so this replacement is never returned.
  if (pending.intent === 'pop') return to === pending.original ? null : { type: 'replace', to };
  if (pending.intent === 'push' && current?.fullPath !== to) return { type: 'push', to };
  return { type: 'replace', to };
}

export function committed(
  pending: PendingNavigation,
  previous: CommittedNavigation | null,
  page: { readonly data: unknown; readonly title?: string | undefined },
  failed: boolean,
  fromPayload = false,
): CommittedNavigation {
  // Stryker disable next-line OptionalChaining: Only read when the navigation did not fail, and a committed success always has a match: `commit` with `failed: false` runs after `loading`/`retrying`, reached only through `validating` where a null match is the 404 failure, and `bootPage` returns early without a match.
  const route = failed ? null : (pending.match?.route ?? null);
  return {
    location: pending.to,
    fullPath: toFullPath(pending.to),
    route: route?.name ?? null,
    // Stryker disable next-line OptionalChaining: Only read when the navigation did not fail, and a committed success always has a match: `commit` with `failed: false` runs after `loading`/`retrying`, reached only through `validating` where a null match is the 404 failure, and `bootPage` returns early without a match.
    params: failed ? {} : (pending.match?.params ?? {}),
    data: failed ? undefined : page.data,
    title: route ? (page.title ?? route.title) : null,
    key: (previous?.key ?? 0) + 1,
    stale: !failed && fromPayload && pending.match?.route.revalidate === true,
    fromBuild: !failed && fromPayload,
    via: pending.intent,
  };
}

/** Which page a location shows: path and query; the `#fragment` is only a place on it. */
export function pageKeyOf(location: AppLocation): string {
  return `${location.pathname}${location.search}`;
}

/**
 * The pages kept after `previous` is left for `next`: `previous` joins them (when it was a page, not an error
 * page), newest last, in place of an older copy; the page about to be shown is not kept twice; the oldest go
 * beyond `limit`.
 */
export function remember(
  kept: readonly CommittedNavigation[],
  previous: CommittedNavigation | null,
  next: AppLocation,
  limit: number,
): readonly CommittedNavigation[] {
  const shown = pageKeyOf(next);
  const left = previous?.route ? pageKeyOf(previous.location) : null;
  const others = kept.filter((page) => {
    const key = pageKeyOf(page.location);
    return key !== shown && key !== left;
  });
  const all = previous?.route && left !== shown ? [...others, previous] : others;
  return all.slice(Math.max(0, all.length - limit));
}

/** The page kept for a back/forward step to `pending`'s location, if it is the same route's. */
export function rememberedFor(
  kept: readonly CommittedNavigation[],
  pending: PendingNavigation,
): CommittedNavigation | null {
  if (pending.intent !== 'pop' || !pending.match) return null;
  const key = pageKeyOf(pending.to);
  const page = kept.find((candidate) => pageKeyOf(candidate.location) === key);
  return page && page.route === pending.match.route.name ? page : null;
}

/**
 * A kept page on screen again, with the data it was last drawn with, as a new settled navigation. It is
 * checked again in the background unless its data is the build's and its route does not ask for that (the
 * landing page's payload cannot have changed): a loader's data may have.
 */
export function revisited(
  page: CommittedNavigation,
  pending: PendingNavigation,
  previous: CommittedNavigation | null,
): CommittedNavigation {
  return {
    ...page,
    location: pending.to,
    fullPath: toFullPath(pending.to),
    key: (previous?.key ?? 0) + 1,
    stale: !page.fromBuild || pending.match?.route.revalidate === true,
    via: pending.intent,
  };
}

/**
 * The page on screen when the app boots from prerendered HTML, as if a navigation to it had just settled
 * (key 1: a first load, so no focus move or announcement). `null` when the path is not one a prerendered
 * page can be (no route, or its validate rule fails): the app then boots as usual.
 */
export function bootPage(
  page: BootPage | undefined,
  table: readonly RouteRecord[],
): CommittedNavigation | null {
  if (!page) return null;
  const pending = beginNavigation(page.fullPath, 'pop');
  if (!pending) return null;
  const match = matchRoute(pending.to.pathname, table);
  if (
    !match ||
    validateError(
      { ...pending, match },
      { maxRedirects: 0, maxEchoedPathLength: 0, maxRememberedPages: 0 },
    ) !== null
  )
    return null;
  return committed({ ...pending, match }, null, { data: page.data, title: page.title }, false, true);
}

/** What the document title and the first-settle rule read of the app's context. */
interface OnScreen {
  readonly appName: string;
  readonly current: CommittedNavigation | null;
}

export function errorDocumentTitle(error: AppError, appName: string): string {
  return `${error.statusCode} - ${statusMessageOf(error)} | ${appName}`;
}

/** The document title for what is on screen: the error page's, the page's, or just the app's name. */
export function documentTitleOf(context: OnScreen, shownError: AppError | null): string {
  if (shownError) return errorDocumentTitle(shownError, context.appName);
  const title = context.current?.title;
  return title ? `${title} | ${context.appName}` : context.appName;
}

/** The first settled navigation keeps the browser's own focus and scroll, as a document load does. */
export function isFirstSettle(context: Pick<OnScreen, 'current'>): boolean {
  // Stryker disable next-line OptionalChaining: the one caller, the navigation region's `isLaterPage` guard, asks only after `context.current?.route != null`, so a page is on screen whenever it runs. The optional chaining keeps the helper safe for a caller that asks before the first page.
  return (context.current?.key ?? 0) <= 1;
}

export function arrivalOf(context: Pick<OnScreen, 'current'>, title: string): Arrival {
  const current = context.current;
  const kind: ArrivalKind = isFirstSettle(context) ? 'first' : current?.via === 'pop' ? 'return' : 'new';
  return { title, kind, hash: current?.location.hash ?? '' };
}

// The route guards, by the name a route uses, and how they run.

const allow: GuardVerdict = { type: 'allow' };

/** Global: a signed-out user who opens a page that needs a session is sent to sign in, and back afterwards. */
export const auth: RouteGuard = ({ to, match, signedIn }) =>
  match?.route.requiresAuth && !signedIn ? { type: 'redirect', to: loginPathFor(toFullPath(to)) } : allow;

/** On the sign-in page: a signed-in user has nothing to do there and goes where they were heading. */
export const guest: RouteGuard = ({ to, signedIn }) =>
  signedIn ? { type: 'redirect', to: safeReturnTo(readQuery(to, RETURN_TO_PARAM)) } : allow;

/** Global, last: the build manifest's redirect rules. The hash travels along unless the rule sets its own. */
export const manifestRouteRule: RouteGuard = ({ to, rules }) => {
  const redirect = rules ? rulesFor(to.pathname, rules).redirect : undefined;
  if (redirect === undefined) return allow;
  return {
    type: 'redirect',
    // Stryker disable next-line StringLiteral: `to.hash` comes from the URL parser and is either empty or starts with `#`, so it never equals 'Stryker was here!'; the test is then always false, and appending an empty hash changes nothing.
    to: redirect.includes('#') || to.hash === '' ? redirect : `${redirect}${to.hash}`,
  };
};

/** The registered guards, by the name a route uses. */
export const routeGuards: Readonly<Record<string, RouteGuard>> = {
  auth,
  guest,
  'manifest-route-rule': manifestRouteRule,
};

export class UnknownGuardError extends Error {
  // The message keeps the spec's (Nuxt's) words, which say "middleware" for what this code calls a guard.
  constructor(readonly guard: string) {
    super(`Unknown route middleware: '${guard}'.`);
    this.name = 'UnknownGuardError';
  }
}

/**
 * Runs the global guards, then the route's own, in order; the first verdict that is not `allow` wins.
 * A name with no registered guard throws before anything runs, as a misconfigured table is a bug.
 */
export function runGuards(
  names: readonly string[],
  registry: Readonly<Record<string, RouteGuard>>,
  input: GuardInput,
): GuardVerdict {
  const resolved = names.map((name) => {
    const guard = Object.hasOwn(registry, name) ? registry[name] : undefined;
    if (!guard) throw new UnknownGuardError(name);
    return guard;
  });
  for (const guard of resolved) {
    const verdict = guard(input);
    if (verdict.type !== 'allow') return verdict;
  }
  return allow;
}
