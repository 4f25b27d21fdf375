/**
 * The navigation region: every location change is matched, guarded, validated and loaded before the URL
 * commits, and the page that a navigation settles on arrives: its title, and for each page after the first
 * (which keeps the browser's own focus, as a document load does) focus, scroll and an announcement. A step
 * back or forward to a page left a moment ago shows it at once with the data it was drawn with (the
 * freshness region then checks it again), and returns to where the visitor was on it; a link to a
 * `#fragment` of the page on screen only moves there. Its recoveries (a chunk that fails to load, a pending
 * update) are in app.recovery.ts.
 */
import { and, assign, or, raise, sendTo, stateIn } from 'xstate';
import { placeholder } from '../../core/placeholder';
import { findRoute } from '../../core/routes';
import type { ColorModeEvent } from '../colorMode/colorMode.machine';
import type { SessionEvent } from '../session/session.machine';
import { recoveryImplementations, recoveryStates } from './app.recovery';
import { type AppContext, appSetup, pendingOf, regionImplementations } from './app.setup';
import {
  addressBarParams,
  arrivalOnScreen,
  commitLoaded,
  failWith,
  loadFailure,
  loadInput,
  titleOnScreen,
} from './app.steps';
import {
  beginNavigation,
  type CommittedNavigation,
  followRedirect,
  fragmentAddress,
  fragmentLink,
  fragmentStep,
  guardNamesFor,
  isAppPath,
  redirectError,
  remember,
  rememberedFor,
  revisited,
  validateError,
  withMatch,
  withVerdict,
} from './app.utils';
import type { AppError } from './errors';

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

/** The navigation region's setup (its recoveries' implementations included); app.machine.ts extends it. */
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
