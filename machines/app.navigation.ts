/**
 * The navigation region: every location change is matched, guarded, validated and loaded before the URL
 * commits, and the page that a navigation settles on arrives: its title, and for each page after the first
 * (which keeps the browser's own focus, as a document load does) focus, scroll and an announcement. Its
 * recoveries (a chunk that fails to load, a pending update) are in app.recovery.ts.
 */
import { and, assign, or, raise, sendTo, stateIn } from 'xstate';
import { recoveryImplementations, recoveryStates } from './app.recovery';
import { type AppContext, appSetup, pendingOf, placeholder, regionImplementations } from './app.setup';
import { commitLoaded, failWith, loadFailure, loadInput, titleOnScreen } from './app.steps';
import {
  beginNavigation,
  followRedirect,
  fragmentStep,
  guardNamesFor,
  isAppPath,
  isFirstSettle,
  redirectError,
  validateError,
  withMatch,
  withVerdict,
} from './app.utils';
import type { ColorModeEvent } from './colorMode.machine';
import type { AppError } from './errors';
import { findRoute } from './routes';
import { isUnauthorized, type SessionEvent } from './session.machine';

export const navigationImplementations = regionImplementations({
  actions: {
    reportRejectedTarget: (_, _params: { to: string }) => placeholder('reportRejectedTarget'),
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
    /** A page's data answered 401 while the app counted on a session: it ended on the server. */
    isSessionExpired: ({ context }, { error }: { error: unknown }) =>
      context.session === 'signedIn' && isUnauthorized(error),
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

/** The navigation region's setup (its recoveries' implementations included); app.machine.ts extends it. */
export const navigationSetup = appSetup.extend(recoveryImplementations).extend(navigationImplementations);

/** A back/forward step that a guard stopped: the address bar goes back to what the screen shows. */
const restoreParams = ({ context }: { context: AppContext }) =>
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

export const navigationRegion = navigationSetup.createStateConfig({
  initial: 'booting',
  on: {
    // No `reenter`: re-entering this region would also reset its siblings, such as the error page.
    'nav.go': [
      { guard: 'isAppPath', target: '.resolving', actions: 'beginNavigation' },
      { actions: { type: 'reportRejectedTarget', params: ({ event }) => ({ to: event.to }) } },
    ],
    'nav.popped': [
      // Only the #fragment moved (an in-page link, or Back over one): same page, nothing to load or announce.
      { guard: 'isFragmentStep', actions: 'followFragment' },
      { guard: 'isAppPath', target: '.resolving', actions: 'beginNavigation' },
      { actions: { type: 'reportRejectedTarget', params: ({ event }) => ({ to: event.to }) } },
    ],
    'session.changed': { actions: 'assignSession' },
    // The navigation settled on a page (its commit raised this): the page arrives. This region's actions
    // run before the errors region takes the error page down, which touches no effect.
    'page.settled': [
      {
        guard: 'isLaterPage',
        actions: [
          { type: 'showDocumentTitle', params: titleOnScreen },
          { type: 'arriveAtPage', params: titleOnScreen },
        ],
      },
      { actions: { type: 'showDocumentTitle', params: titleOnScreen } },
    ],
  },
  states: {
    // A prerendered page boots settled (hydration): straight to idle, nothing to load.
    booting: { tags: ['booting'], always: { guard: 'hasPage', target: 'idle' } },
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
