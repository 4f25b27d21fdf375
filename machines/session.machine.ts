import { type AnyActorRef, assign, enqueueActions, fromPromise, sendParent, setup } from 'xstate';
import type { ToasterEvent } from './toaster.machine';
import type { ToastOptions } from './toaster.utils';

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
  | { type: 'session.dismissError' };

/** What the session tells its parent (the app machine) whenever it settles. */
export type SessionReport = { type: 'session.changed'; signedIn: boolean };

export interface SessionContext {
  readonly user: SessionUser | null;
  /** The last failure, worded for the person in front of the screen. */
  readonly error: string | null;
  readonly profileError: string | null;
}

function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message !== '' ? error.message : fallback;
}

/** The toaster (system id `toaster`) that feedback goes to; absent when the session runs on its own. */
function toasterIn(system: { get(systemId: string): AnyActorRef | undefined }) {
  return system.get('toaster');
}

function toastEvent(toast: ToastOptions): ToasterEvent {
  return { type: 'toast.add', toast };
}

/**
 * Who is signed in. The `auth` and `guest` guards read the result through the app machine.
 *
 * Events in: `session.signIn`, `session.signOut`, `session.saveProfile`, `session.dismissError`.
 * Must be provided: actors `fetchSession`, `signIn`, `signOut`, `saveProfile` (the placeholders reject).
 * Tags out: `settled` (signed in or out, nothing pending), `busy` (a request is under way).
 * Reports `session.changed` to its parent each time it settles, and sends feedback toasts (`toast.add`) to
 * the system's `toaster` after signing in or out, saving the profile, and failures that leave the page usable.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    fetchSession: fromPromise<SessionUser | null>(async () => {
      throw new Error('fetchSession is not provided');
    }),
    signIn: fromPromise<SessionUser, Credentials>(async () => {
      throw new Error('signIn is not provided');
    }),
    signOut: fromPromise<void>(async () => {
      throw new Error('signOut is not provided');
    }),
    saveProfile: fromPromise<SessionUser, { displayName: string }>(async () => {
      throw new Error('saveProfile is not provided');
    }),
  },
  actions: {
    reportSignedIn: sendParent({ type: 'session.changed', signedIn: true } satisfies SessionReport),
    reportSignedOut: sendParent({ type: 'session.changed', signedIn: false } satisfies SessionReport),
    clearErrors: assign({ error: null, profileError: null }),
    notifySignedIn: enqueueActions(({ context, system, enqueue }) => {
      const toaster = toasterIn(system);
      const name = context.user?.displayName;
      if (toaster) {
        enqueue.sendTo(
          toaster,
          toastEvent({ title: 'Signed in', description: name ? `Welcome, ${name}.` : undefined }),
        );
      }
    }),
    notifySignedOut: enqueueActions(({ system, enqueue }) => {
      const toaster = toasterIn(system);
      if (toaster)
        enqueue.sendTo(toaster, toastEvent({ title: 'Signed out', description: 'See you next time.' }));
    }),
    notifyProfileSaved: enqueueActions(({ context, system, enqueue }) => {
      const toaster = toasterIn(system);
      if (toaster) {
        enqueue.sendTo(
          toaster,
          toastEvent({
            title: 'Profile saved',
            description: `Others now see you as ${context.user?.displayName}.`,
          }),
        );
      }
    }),
    notifyRequestFailed: enqueueActions(({ system, enqueue }, params: { title: string; message: string }) => {
      const toaster = toasterIn(system);
      if (toaster) enqueue.sendTo(toaster, toastEvent({ title: params.title, description: params.message }));
    }),
  },
  guards: {
    hasUser: (_, user: SessionUser | null) => user !== null,
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
            actions: assign({ user: ({ event }) => event.output }),
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
              type: 'notifyRequestFailed',
              params: ({ event }) => ({
                title: 'Could not check your session',
                message: messageOf(event.error, 'Unknown error.'),
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
        'session.dismissError': { actions: 'clearErrors' },
      },
    },
    signingIn: {
      tags: ['busy'],
      invoke: {
        id: 'signIn',
        src: 'signIn',
        input: ({ event }) => {
          if (event.type !== 'session.signIn') throw new Error(`Unexpected ${event.type}`);
          return { email: event.email, password: event.password };
        },
        onDone: {
          target: 'signedIn',
          actions: [assign({ user: ({ event }) => event.output }), 'notifySignedIn'],
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
        'session.dismissError': { actions: 'clearErrors' },
      },
      initial: 'idle',
      states: {
        idle: {
          on: { 'session.saveProfile': { target: 'saving', actions: 'clearErrors' } },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'saveProfile',
            src: 'saveProfile',
            input: ({ event }) => {
              if (event.type !== 'session.saveProfile') throw new Error(`Unexpected ${event.type}`);
              return { displayName: event.displayName };
            },
            onDone: {
              target: 'saved',
              actions: [assign({ user: ({ event }) => event.output }), 'notifyProfileSaved'],
            },
            onError: {
              target: 'idle',
              actions: [
                assign({ profileError: ({ event }) => messageOf(event.error, 'Saving failed.') }),
                {
                  type: 'notifyRequestFailed',
                  params: ({ event }) => ({
                    title: 'Profile not saved',
                    message: messageOf(event.error, 'Saving failed.'),
                  }),
                },
              ],
            },
          },
        },
        saved: {
          on: { 'session.saveProfile': { target: 'saving', actions: 'clearErrors' } },
        },
      },
    },
    signingOut: {
      tags: ['busy'],
      invoke: {
        id: 'signOut',
        src: 'signOut',
        onDone: { target: 'signedOut', actions: [assign({ user: null }), 'notifySignedOut'] },
        onError: {
          target: 'signedIn',
          actions: [
            assign({
              error: ({ event }) => `Signing out failed: ${messageOf(event.error, 'unknown error')}`,
            }),
            {
              type: 'notifyRequestFailed',
              params: ({ event }) => ({
                title: 'Still signed in',
                message: `Signing out failed: ${messageOf(event.error, 'unknown error')}`,
              }),
            },
          ],
        },
      },
    },
  },
});
