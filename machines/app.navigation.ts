/**
 * The navigation region: every location change is matched, guarded, validated and loaded before the URL
 * commits. A chunk that fails to load is recovered (a newer build reloads the page, once per path per
 * reload-guard window; the same build retries the import once); a pending update turns the next navigation
 * into a document load.
 */
import { and, raise } from 'xstate';
import { type AppContext, appSetup, type LoadedPage, pendingOf } from './app.setup';
import { addressBarUpdate, redirectError, validateError } from './app.utils';
import { type AppError, toAppError } from './errors';
import { isPrerendered } from './payload';
import { toFullPath } from './routes';

const addressBarParams = ({ context }: { context: AppContext }) =>
  addressBarUpdate(pendingOf(context), context.current);

/** A back/forward step that a guard stopped: the address bar goes back to what the screen shows. */
const restoreParams = ({ context }: { context: AppContext }) =>
  context.pending?.intent === 'pop' && context.current
    ? { type: 'replace' as const, to: context.current.fullPath }
    : null;

const targetOf = ({ context }: { context: AppContext }) => ({ path: toFullPath(pendingOf(context).to) });

type Args = { context: AppContext; event: unknown };

/** Settle on an error page: the failed target's URL goes in the address bar, so Back returns from it. */
function failWith(error: (args: Args) => AppError | null) {
  // The error is read before `commit` clears the pending navigation; a raised event is handled after this step anyway.
  return [
    { type: 'updateAddressBar', params: addressBarParams },
    { type: 'announceOutcome', params: (args: Args) => ({ error: error(args) }) },
    { type: 'commit', params: { page: { data: undefined }, failed: true } },
  ] as const;
}

const loadInput = ({ context }: { context: AppContext }) => {
  const pending = pendingOf(context);
  if (!pending.match) throw new Error('Only a matched route can be loaded.');
  const input = {
    route: pending.match.route.name,
    params: pending.match.params,
    fullPath: toFullPath(pending.to),
  };
  return isPrerendered(pending.to.pathname, context.prerendered)
    ? { ...input, payload: { path: pending.to.pathname, buildId: context.build.id } }
    : input;
};

const commitLoaded = [
  { type: 'updateAddressBar', params: addressBarParams },
  { type: 'announceOutcome', params: { error: null } },
  {
    type: 'commit',
    params: ({ event }: { event: { output: LoadedPage } }) => ({ page: event.output, failed: false }),
  },
] as const;

/** A 401 for the page's data: the session ended, so run the guards again (auth sends the user to sign in). */
const sessionExpired = {
  guard: {
    type: 'isSessionExpired',
    params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
  },
  target: 'resolving',
  actions: ['endSession', 'forgetSession'],
} as const;

const loadFailure = ({ context, event }: { context: AppContext; event: unknown }) =>
  toAppError((event as { error?: unknown }).error, toFullPath(pendingOf(context).to));

export const navigationRegion = appSetup.createStateConfig({
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
    /** A newer build exists: load this navigation's target as a document, unless the reload guard says not again. */
    reloadingForUpdate: {
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
    },
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
    /** A page chunk failed: ask which build is current before deciding between a reload and a retry. */
    recovering: {
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
    },
    /** The same build (or no answer): the chunk should still exist, so try the import once more. */
    retrying: {
      tags: ['busy'],
      invoke: {
        id: 'retryPage',
        src: 'loadPage',
        input: loadInput,
        onDone: { target: 'idle', actions: commitLoaded },
        onError: { target: 'idle', actions: failWith(loadFailure) },
      },
    },
    /** A newer build: reload the target, at most once per path per window; otherwise the error page. */
    claimingReload: {
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
    },
    /** The document is being replaced; nothing more happens here. */
    leaving: {
      tags: ['busy'],
      entry: { type: 'loadDocument', params: ({ context }) => ({ url: toFullPath(pendingOf(context).to) }) },
    },
  },
});
