import { assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import {
  type AddressBarUpdate,
  addressBarUpdate,
  beginNavigation,
  type CommittedNavigation,
  committed,
  followRedirect,
  guardNamesFor,
  isAppPath,
  type NavigationLimits,
  type PendingNavigation,
  redirectError,
  validateError,
  withMatch,
  withVerdict,
} from './app.utils';
import { type AppError, toAppError } from './errors';
import { type RouteGuard, routeGuards } from './guards';
import { globalMiddleware, type RouteName, type RouteRecord, routes, toFullPath } from './routes';
import { type SessionReport, sessionMachine } from './session.machine';

export type AppEvent =
  /** From a link or from code: open this app path. */
  | { type: 'nav.go'; to: string; replace?: boolean }
  /** From the browser: the first location, or a back/forward step. */
  | { type: 'nav.popped'; to: string }
  | SessionReport
  | { type: 'error.raised'; error: AppError }
  | { type: 'error.cleared' };

export interface AppInput extends NavigationLimits {
  readonly slowNavigationMs: number;
  readonly routes?: readonly RouteRecord[];
  readonly globalMiddleware?: readonly string[];
  readonly guards?: Readonly<Record<string, RouteGuard>>;
}

export interface AppContext {
  readonly limits: NavigationLimits;
  readonly slowNavigationMs: number;
  readonly routes: readonly RouteRecord[];
  readonly globalMiddleware: readonly string[];
  readonly guards: Readonly<Record<string, RouteGuard>>;
  readonly session: 'unknown' | 'signedIn' | 'signedOut';
  readonly pending: PendingNavigation | null;
  readonly current: CommittedNavigation | null;
  readonly error: AppError | null;
  readonly visitor: 'unknown' | 'human' | 'crawler';
}

export interface LoadPageInput {
  readonly route: RouteName;
  readonly params: Readonly<Record<string, string>>;
  readonly fullPath: string;
}

export interface LoadedPage {
  readonly data: unknown;
}

function pendingOf(context: AppContext): PendingNavigation {
  if (context.pending === null) throw new Error('No navigation is pending.');
  return context.pending;
}

const addressBarParams = ({ context }: { context: AppContext }) =>
  addressBarUpdate(pendingOf(context), context.current);

/** A back/forward step that a guard stopped: the address bar goes back to what the screen shows. */
const restoreParams = ({ context }: { context: AppContext }): AddressBarUpdate | null =>
  context.pending?.intent === 'pop' && context.current
    ? { type: 'replace', to: context.current.fullPath }
    : null;

/**
 * The application: navigation (match, guards, validate, load, commit) and the error page.
 *
 * Events in: `nav.go`, `nav.popped` (from the history adapter), `session.changed` (from its session child).
 * Must be provided: actors `listenToHistory`, `loadPage`, `detectCrawler`, and the session machine's
 * actors; actions `pushUrl`, `replaceUrl`, `logSuppressedError`, `reportRejectedTarget`.
 * Tags out: `booting` (no page yet), `busy` (a navigation is pending), `slow` (and it is taking long),
 * `error` (the error page replaces the layout).
 * Children: `session` (system id `session`).
 */
export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
    input: {} as AppInput,
  },
  actors: {
    session: sessionMachine,
    listenToHistory: fromCallback<AppEvent>(() => {
      throw new Error('listenToHistory is not provided');
    }),
    loadPage: fromPromise<LoadedPage, LoadPageInput>(async () => {
      throw new Error('loadPage is not provided');
    }),
    detectCrawler: fromPromise<boolean>(async () => {
      throw new Error('detectCrawler is not provided');
    }),
  },
  actions: {
    updateAddressBar: (_, _params: AddressBarUpdate | null) => {
      throw new Error('updateAddressBar is not provided');
    },
    logSuppressedError: (_, _params: { error: AppError }) => {
      throw new Error('logSuppressedError is not provided');
    },
    reportRejectedTarget: (_, _params: { to: string }) => {
      throw new Error('reportRejectedTarget is not provided');
    },
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
    runGuards: assign({
      pending: ({ context }) => {
        const pending = pendingOf(context);
        const names = guardNamesFor(pending, context.globalMiddleware);
        return withVerdict(pending, names, context.guards, context.session === 'signedIn');
      },
    }),
    followRedirect: assign({ pending: ({ context }) => followRedirect(pendingOf(context)) }),
    /** Puts what the navigation loaded (or, on failure, nothing) on screen, and the error page up or down. */
    commit: enqueueActions(({ context, enqueue }, params: { data: unknown; error: AppError | null }) => {
      const pending = pendingOf(context);
      enqueue.assign({
        current: committed(pending, context.current, params.data, params.error !== null),
        pending: null,
      });
      enqueue.raise(params.error ? { type: 'error.raised', error: params.error } : { type: 'error.cleared' });
    }),
    clearPending: assign({ pending: null }),
    assignError: assign({ error: ({ event }) => (event.type === 'error.raised' ? event.error : null) }),
    clearError: assign({ error: null }),
  },
  guards: {
    isAppPath: ({ event }) => (event.type === 'nav.go' || event.type === 'nav.popped') && isAppPath(event.to),
    hasCommittedLocation: ({ context }) => context.current !== null,
    isSessionKnown: ({ context }) => context.session !== 'unknown',
    hasGuardFailure: ({ context }) => context.pending?.failure != null,
    isRedirect: ({ context }) => context.pending?.verdict?.type === 'redirect',
    isRedirectAllowed: ({ context }) =>
      context.pending !== null &&
      context.pending.redirects < context.limits.maxRedirects &&
      followRedirect(context.pending) !== null,
    isAborted: ({ context }) => context.pending?.verdict?.type === 'abort',
    isInvalid: ({ context }) => validateError(pendingOf(context), context.limits) !== null,
    isKnownCrawler: ({ context }) => context.visitor === 'crawler',
    isKnownHuman: ({ context }) => context.visitor === 'human',
    isCrawler: (_, isCrawler: boolean) => isCrawler,
  },
  delays: {
    slowNavigation: ({ context }) => context.slowNavigationMs,
  },
}).createMachine({
  id: 'app',
  type: 'parallel',
  context: ({ input }) => ({
    limits: { maxRedirects: input.maxRedirects, maxEchoedPathLength: input.maxEchoedPathLength },
    slowNavigationMs: input.slowNavigationMs,
    routes: input.routes ?? routes,
    globalMiddleware: input.globalMiddleware ?? globalMiddleware,
    guards: input.guards ?? routeGuards,
    session: 'unknown',
    pending: null,
    current: null,
    error: null,
    visitor: 'unknown',
  }),
  invoke: [
    { id: 'session', systemId: 'session', src: 'session' },
    { id: 'history', src: 'listenToHistory' },
  ],
  states: {
    navigation: {
      initial: 'booting',
      on: {
        // No `reenter`: re-entering this region would also reset its sibling, the error page.
        'nav.go': [
          { guard: 'isAppPath', target: '.resolving', actions: 'beginNavigation' },
          { actions: { type: 'reportRejectedTarget', params: ({ event }) => ({ to: event.to }) } },
        ],
        'nav.popped': [
          { guard: 'isAppPath', target: '.resolving', actions: 'beginNavigation' },
          { actions: { type: 'reportRejectedTarget', params: ({ event }) => ({ to: event.to }) } },
        ],
        'session.changed': { actions: 'assignSession' },
      },
      states: {
        booting: { tags: ['booting'] },
        idle: {
          on: {
            // Who may see what has just changed: run the guards again for the page on screen.
            'session.changed': {
              guard: 'hasCommittedLocation',
              target: 'resolving',
              actions: ['assignSession', 'beginRefresh'],
            },
          },
        },
        resolving: {
          tags: ['busy'],
          entry: 'matchPending',
          always: [{ guard: 'isSessionKnown', target: 'guarding' }, { target: 'awaitingSession' }],
        },
        awaitingSession: {
          tags: ['busy'],
          on: { 'session.changed': { target: 'guarding', actions: 'assignSession' } },
        },
        guarding: {
          tags: ['busy'],
          entry: 'runGuards',
          always: [
            {
              guard: 'hasGuardFailure',
              target: 'idle',
              actions: [
                { type: 'updateAddressBar', params: addressBarParams },
                {
                  type: 'commit',
                  params: ({ context }) => ({ data: undefined, error: pendingOf(context).failure }),
                },
              ],
            },
            { guard: 'isRedirectAllowed', target: 'resolving', reenter: true, actions: 'followRedirect' },
            {
              guard: 'isRedirect',
              target: 'idle',
              actions: [
                { type: 'updateAddressBar', params: addressBarParams },
                {
                  type: 'commit',
                  params: ({ context }) => ({
                    data: undefined,
                    error: redirectError(pendingOf(context), context.limits),
                  }),
                },
              ],
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
              actions: [
                { type: 'updateAddressBar', params: addressBarParams },
                {
                  type: 'commit',
                  params: ({ context }) => ({
                    data: undefined,
                    error: validateError(pendingOf(context), context.limits),
                  }),
                },
              ],
            },
            { target: 'loading' },
          ],
        },
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadPage',
            src: 'loadPage',
            input: ({ context }) => {
              const pending = pendingOf(context);
              if (!pending.match) throw new Error('Only a matched route can be loaded.');
              return {
                route: pending.match.route.name,
                params: pending.match.params,
                fullPath: toFullPath(pending.to),
              };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'updateAddressBar', params: addressBarParams },
                { type: 'commit', params: ({ event }) => ({ data: event.output.data, error: null }) },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'updateAddressBar', params: addressBarParams },
                {
                  type: 'commit',
                  params: ({ context, event }) => ({
                    data: undefined,
                    error: toAppError(event.error, toFullPath(pendingOf(context).to)),
                  }),
                },
              ],
            },
          },
          initial: 'quick',
          states: {
            quick: { after: { slowNavigation: 'slow' } },
            slow: { tags: ['slow'] },
          },
        },
      },
    },
    errors: {
      initial: 'none',
      on: {
        'error.raised': { target: '.screening', actions: 'assignError' },
        'error.cleared': { target: '.none', actions: 'clearError' },
      },
      states: {
        none: {},
        screening: {
          always: [
            { guard: 'isKnownCrawler', target: 'suppressed' },
            { guard: 'isKnownHuman', target: 'shown' },
          ],
          invoke: {
            id: 'detectCrawler',
            src: 'detectCrawler',
            onDone: [
              {
                guard: { type: 'isCrawler', params: ({ event }) => event.output },
                target: 'suppressed',
                actions: assign({ visitor: 'crawler' }),
              },
              { target: 'shown', actions: assign({ visitor: 'human' }) },
            ],
            // Not knowing is no reason to hide an error from a person.
            onError: { target: 'shown' },
          },
        },
        shown: { tags: ['error'] },
        suppressed: {
          entry: {
            type: 'logSuppressedError',
            params: ({ context }) => ({ error: context.error ?? toAppError('Unknown error') }),
          },
        },
      },
    },
  },
});

export type AppMachine = typeof appMachine;
