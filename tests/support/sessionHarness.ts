/**
 * A session machine as tests run it: its requests answered by the test, under a parent that records what it
 * reports, next to a toaster (system id `toaster`) that records the toasts it is sent.
 */
import {
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  createMachine,
  fromCallback,
  fromPromise,
  type NonReducibleUnknown,
  sendTo,
} from 'xstate';
import { type Credentials, type SessionUser, sessionMachine } from '../../machines/session/session.machine';
import type { ToasterEvent } from '../../machines/toast/toaster.machine';
import type { ToastOptions } from '../../machines/toast/toaster.utils';
import { flush } from './appHarness';

interface Control {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * A session under a parent that records its reports, next to a toaster (system id `toaster`) that records the
 * toasts it is sent (none when `withToaster` is false). `logic` replaces the session with answered requests.
 */
export function startSession(options: { withToaster?: boolean; logic?: AnyStateMachine } = {}) {
  const pending: Record<string, Control[]> = {};
  const controlled = <T, I = NonReducibleUnknown>(name: string) =>
    fromPromise<T, I>(
      () =>
        new Promise<T>((resolve, reject) => {
          const queue = pending[name] ?? [];
          queue.push({ resolve: resolve as (value: unknown) => void, reject });
          pending[name] = queue;
        }),
    );
  const session =
    options.logic ??
    sessionMachine.provide({
      actors: {
        fetchSession: controlled<SessionUser | null>('fetchSession'),
        signIn: controlled<SessionUser, Credentials>('signIn'),
        signOut: controlled<void>('signOut'),
        saveProfile: controlled<SessionUser, { displayName: string }>('saveProfile'),
      },
    });
  const toasts: ToastOptions[] = [];
  const toaster = fromCallback<ToasterEvent>(({ receive }) => {
    receive((event) => {
      if (event.type === 'toast.add') toasts.push(event.toast);
    });
  });
  const reports: boolean[] = [];
  const parent = createMachine({
    types: {} as {
      events: { type: 'session.changed'; signedIn: boolean } | { type: 'forward'; event: AnyEventObject };
    },
    invoke: [
      ...(options.withToaster === false ? [] : [{ id: 'toaster', systemId: 'toaster', src: toaster }]),
      { id: 'session', src: session },
    ],
    on: {
      'session.changed': { actions: ({ event }) => reports.push(event.signedIn) },
      forward: { actions: sendTo('session', ({ event }) => event.event) },
    },
  });
  // Every event delivered anywhere in the system, by type: feedback that went astray shows up here.
  const delivered: string[] = [];
  const actor = createActor(parent, {
    inspect: (inspection) => {
      if (inspection.type === '@xstate.event') delivered.push(inspection.event.type);
    },
  }).start();
  const child = () =>
    actor.getSnapshot().children.session as unknown as { getSnapshot(): AnyMachineSnapshot };
  return {
    actor,
    delivered,
    reports,
    toasts,
    send: (event: AnyEventObject) => actor.send({ type: 'forward', event }),
    snapshot: () => child().getSnapshot(),
    async answer(name: string, value: unknown) {
      pending[name]?.shift()?.resolve(value);
      await flush();
    },
    async fail(name: string, message: string) {
      pending[name]?.shift()?.reject(new Error(message));
      await flush();
    },
    async failWith(name: string, error: unknown) {
      pending[name]?.shift()?.reject(error);
      await flush();
    },
  };
}
