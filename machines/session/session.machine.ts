import { type AnyActorRef, assign, enqueueActions, fromPromise, sendParent, setup } from 'xstate';
import { placeholder } from '../../core/placeholder';
import type { ToasterEvent } from '../toast/toaster.machine';
import type { ToastOptions } from '../toast/toaster.utils';

export interface SessionUser {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
}

export interface Credentials {
  readonly email: string;
  readonly password: string;
}

export type SessionEvent =
  | { type: 'session.signIn'; email: string; password: string }
  | { type: 'session.signOut' }
  | { type: 'session.saveProfile'; displayName: string }
  /** From the app: the server answered 401 to a request made with this session, so it has ended. */
  | { type: 'session.expired' }
  /**
   * From the app: the page came back from the back/forward cache, and the session may have changed
   * meanwhile (signed out or in from another tab): ask the server again.
   */
  | { type: 'session.recheck' };

/** What the session tells its parent (the app machine) whenever it settles. */
export type SessionReport = { type: 'session.changed'; signedIn: boolean };

export interface SessionContext {
  readonly user: SessionUser | null;
  /** The last failure, worded for the person in front of the screen. */
  readonly error: string | null;
  readonly profileError: string | null;
}

/** The server no longer knows this session (it expired, or was ended elsewhere). */
export function isUnauthorized(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { statusCode?: unknown }).statusCode === 401
  );
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message !== '' ? error.message : fallback;
}

/** The toaster (system id `toaster`) that feedback goes to; absent when the session runs on its own. */
function toasterIn(system: { get(systemId: string): AnyActorRef | undefined }) {
  return system.get('toaster');
}

function signedInToast(user: SessionUser): ToastOptions {
  return { title: 'Signed in', description: user.displayName ? `Welcome, ${user.displayName}.` : undefined };
}

const sessionEndedToast: ToastOptions = {
  title: 'Your session has ended',
  description: 'Please sign in again to continue where you left off.',
};

function profileSavedToast(user: SessionUser): ToastOptions {
  return { title: 'Profile saved', description: `Others now see you as ${user.displayName}.` };
}

/**
 * Who is signed in. The `auth` and `guest` guards read the result through the app machine.
 *
 * Events in: `session.signIn`, `session.signOut`, `session.saveProfile`,
 * `session.expired` (the app saw a 401; a 401 to its own profile save ends the session the same way),
 * `session.recheck` (asks the server again while settled; the answer may sign in or out, a failure changes
 * nothing).
 * Must be provided: actors `fetchSession`, `signIn`, `signOut`, `saveProfile` (the placeholders reject).
 * Tags out: `settled` (signed in or out, nothing pending), `busy` (a request is under way), `signingIn`,
 * `signingOut`,
 * `savingProfile`, `profileSaved` (read through session.view.ts).
 * Reports `session.changed` to its parent each time it settles, and sends feedback toasts (`toast.add`) to
 * the system's `toaster` after signing in or out, saving the profile, the session ending, and failures that
 * leave the page usable.
 */
export const sessionMachine = setup({
  // Stryker disable next-line ObjectLiteral: `types` only carries TypeScript types for setup(); XState never reads its values at run time, so emptying it changes no behaviour (the type checker, not a test, guards it).
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    fetchSession: fromPromise<SessionUser | null>(async () => placeholder('fetchSession')),
    signIn: fromPromise<SessionUser, Credentials>(async () => placeholder('signIn')),
    signOut: fromPromise<void>(async () => placeholder('signOut')),
    saveProfile: fromPromise<SessionUser, { displayName: string }>(async () => placeholder('saveProfile')),
  },
  actions: {
    reportSignedIn: sendParent({ type: 'session.changed', signedIn: true } satisfies SessionReport),
    reportSignedOut: sendParent({ type: 'session.changed', signedIn: false } satisfies SessionReport),
    clearErrors: assign({ error: null, profileError: null }),
    rememberUser: assign((_, user: SessionUser | null) => ({ user })),
    endSession: assign({ user: null, error: null, profileError: null }),
    /** Feedback for the person: a toast, when a toaster runs (not when the session runs on its own). */
    notify: enqueueActions(({ system, enqueue }, toast: ToastOptions) => {
      const toaster = toasterIn(system);
      if (toaster) enqueue.sendTo(toaster, { type: 'toast.add', toast } satisfies ToasterEvent);
    }),
  },
  guards: {
    hasUser: (_, user: SessionUser | null) => user !== null,
    wasSignedIn: ({ context }) => context.user !== null,
    isUnauthorized: (_, { error }: { error: unknown }) => isUnauthorized(error),
  },
}).createMachine({
  id: 'session',
  context: { user: null, error: null, profileError: null },
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'fetchSession',
        src: 'fetchSession',
        onDone: [
          {
            guard: { type: 'hasUser', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'rememberUser', params: ({ event }) => event.output },
          },
          { target: 'signedOut' },
        ],
        onError: {
          target: 'signedOut',
          actions: [
            assign({
              error: ({ event }) =>
                `Could not check whether you are signed in: ${messageOf(event.error, 'unknown error')}`,
            }),
            {
              type: 'notify',
              params: ({ event }) => ({
                title: 'Could not check your session',
                description: messageOf(event.error, 'Unknown error.'),
              }),
            },
          ],
        },
      },
    },
    signedOut: {
      tags: ['settled'],
      entry: 'reportSignedOut',
      on: {
        'session.signIn': { target: 'signingIn', actions: 'clearErrors' },
        'session.recheck': 'rechecking',
      },
    },
    /**
     * Asking the server again while the page shows what it last knew (the user stays in context, so the
     * header does not flicker): nothing the person did is under way, so no `busy` tag. A failure (offline)
     * is no news: the session stays as it was, silently.
     */
    rechecking: {
      invoke: {
        id: 'recheckSession',
        src: 'fetchSession',
        onDone: [
          {
            guard: { type: 'hasUser', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: { type: 'rememberUser', params: ({ event }) => event.output },
          },
          // Signed out elsewhere while this page was away: say so, as when the server ends a session.
          {
            guard: 'wasSignedIn',
            target: 'signedOut',
            actions: ['endSession', { type: 'notify', params: sessionEndedToast }],
          },
          { target: 'signedOut' },
        ],
        onError: [{ guard: 'wasSignedIn', target: 'signedIn' }, { target: 'signedOut' }],
      },
    },
    signingIn: {
      tags: ['busy', 'signingIn'],
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ event }) => {
          // Stryker disable next-line ConditionalExpression: The check narrows the event type for TypeScript: `signingIn` is entered only by the `session.signIn` transition of `signedOut` (nothing else targets it and no snapshot is ever restored), so the invoke input always sees that event and the throw never happens.
          // Stryker disable next-line StringLiteral: Message of the unreachable throw above: `signingIn` is only entered on `session.signIn`, so this error is never created.
          if (event.type !== 'session.signIn') throw new Error(`Unexpected ${event.type}`);
          return { email: event.email, password: event.password };
        },
        onDone: {
          target: 'signedIn',
          actions: [
            { type: 'rememberUser', params: ({ event }) => event.output },
            { type: 'notify', params: ({ event }) => signedInToast(event.output) },
          ],
        },
        onError: {
          target: 'signedOut',
          actions: assign({ error: ({ event }) => messageOf(event.error, 'Signing in failed.') }),
        },
      },
    },
    signedIn: {
      tags: ['settled'],
      entry: 'reportSignedIn',
      on: {
        'session.signOut': { target: 'signingOut', actions: 'clearErrors' },
        'session.expired': {
          target: 'signedOut',
          actions: ['endSession', { type: 'notify', params: sessionEndedToast }],
        },
      },
      initial: 'idle',
      states: {
        idle: {
          on: {
            'session.saveProfile': { target: 'saving', actions: 'clearErrors' },
            // Not while saving: the save's own answer says whether the session still holds.
            'session.recheck': '#session.rechecking',
          },
        },
        saving: {
          tags: ['busy', 'savingProfile'],
          invoke: {
            id: 'saveProfile',
            src: 'saveProfile',
            input: ({ event }) => {
              if (event.type !== 'session.saveProfile') throw new Error(`Unexpected ${event.type}`);
              return { displayName: event.displayName };
            },
            onDone: {
              target: 'saved',
              actions: [
                { type: 'rememberUser', params: ({ event }) => event.output },
                { type: 'notify', params: ({ event }) => profileSavedToast(event.output) },
              ],
            },
            onError: [
              {
                guard: { type: 'isUnauthorized', params: ({ event }) => ({ error: event.error }) },
                target: '#session.signedOut',
                actions: ['endSession', { type: 'notify', params: sessionEndedToast }],
              },
              {
                target: 'idle',
                actions: [
                  assign({ profileError: ({ event }) => messageOf(event.error, 'Saving failed.') }),
                  {
                    type: 'notify',
                    params: ({ event }) => ({
                      title: 'Profile not saved',
                      description: messageOf(event.error, 'Saving failed.'),
                    }),
                  },
                ],
              },
            ],
          },
        },
        saved: {
          tags: ['profileSaved'],
          on: {
            'session.saveProfile': { target: 'saving', actions: 'clearErrors' },
            'session.recheck': '#session.rechecking',
          },
        },
      },
    },
    signingOut: {
      tags: ['busy', 'signingOut'],
      invoke: {
        id: 'signOut',
        src: 'signOut',
        onDone: {
          target: 'signedOut',
          actions: [
            assign({ user: null }),
            { type: 'notify', params: { title: 'Signed out', description: 'See you next time.' } },
          ],
        },
        onError: {
          target: 'signedIn',
          actions: [
            assign({
              error: ({ event }) => `Signing out failed: ${messageOf(event.error, 'unknown error')}`,
            }),
            {
              type: 'notify',
              params: ({ event }) => ({
                title: 'Still signed in',
                description: `Signing out failed: ${messageOf(event.error, 'unknown error')}`,
              }),
            },
          ],
        },
      },
    },
  },
});
