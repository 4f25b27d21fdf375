/** Fakes for the app machine's effects: controllable actors, recorded actions, no browser. */
import { type AnyEventObject, createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import { type AppInput, appMachine, type LoadedPage, type LoadPageInput } from '../../machines/app.machine';
import type { AddressBarUpdate } from '../../machines/app.utils';
import type { AppError } from '../../machines/errors';
import { type RouteGuard, routeGuards } from '../../machines/guards';
import { findRoute, type RouteRecord, routes } from '../../machines/routes';
import { sessionMachine } from '../../machines/session.machine';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

/** The session child that never answers: tests tell the app about the session with `session.changed`. */
export const silentSession = sessionMachine.provide({
  actors: { fetchSession: never(), signIn: never(), signOut: never(), saveProfile: never() },
});

/** Routes only tests have: a guard that is not registered, a redirect loop, an abort, an exit. */
export const testRoutes: readonly RouteRecord[] = [
  ...routes,
  { ...findRoute('index'), path: '/broken', middleware: ['nope'] },
  { ...findRoute('index'), path: '/loop', middleware: ['loop'] },
  { ...findRoute('index'), path: '/stop', middleware: ['stop'] },
  { ...findRoute('index'), path: '/outside', middleware: ['outside'] },
];

export const testGuards: Readonly<Record<string, RouteGuard>> = {
  ...routeGuards,
  loop: () => ({ type: 'redirect', to: '/loop' }),
  stop: () => ({ type: 'abort' }),
  outside: () => ({ type: 'redirect', to: 'https://evil.example/' }),
};

export const testInput: AppInput = {
  slowNavigationMs: 250,
  maxRedirects: 3,
  maxEchoedPathLength: 40,
  routes: testRoutes,
  guards: testGuards,
};

/** The app machine with inert effects, for graph traversal and path replay. */
export const inertApp = appMachine.provide({
  actors: {
    session: silentSession,
    listenToHistory: fromCallback(() => () => {}),
    loadPage: never<LoadedPage, LoadPageInput>(),
    detectCrawler: never<boolean>(),
  },
  actions: { updateAddressBar: () => {}, logSuppressedError: () => {}, reportRejectedTarget: () => {} },
});

interface Deferred<T> {
  readonly input: LoadPageInput;
  readonly signal: AbortSignal;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A running app actor whose page loads, crawler check and address bar the test controls and reads. */
export function startApp(options: { visitorIsCrawler?: boolean; input?: Partial<AppInput> } = {}) {
  const clock = new SimulatedClock();
  const loads: Deferred<LoadedPage>[] = [];
  const addressBar: AddressBarUpdate[] = [];
  const suppressed: AppError[] = [];
  const rejected: string[] = [];
  const logic = appMachine.provide({
    actors: {
      session: silentSession,
      listenToHistory: fromCallback(() => () => {}),
      loadPage: fromPromise<LoadedPage, LoadPageInput>(
        ({ input, signal }) =>
          new Promise<LoadedPage>((resolve, reject) => {
            loads.push({ input, signal, resolve, reject });
          }),
      ),
      detectCrawler: fromPromise(async () => options.visitorIsCrawler ?? false),
    },
    actions: {
      updateAddressBar: (_, update) => {
        if (update) addressBar.push(update);
      },
      logSuppressedError: (_, { error }) => {
        suppressed.push(error);
      },
      reportRejectedTarget: (_, { to }) => {
        rejected.push(to);
      },
    },
  });
  const actor = createActor(logic, { clock, input: { ...testInput, ...options.input } });
  actor.start();
  const send = (event: AnyEventObject) => actor.send(event as Parameters<typeof actor.send>[0]);
  /** Resolves the newest pending page load and lets promise callbacks run. */
  async function finishLoad(data: unknown = 'data') {
    const load = loads[loads.length - 1];
    if (!load) throw new Error('No page load is pending.');
    load.resolve({ data });
    await flush();
  }
  async function failLoad(error: unknown) {
    const load = loads[loads.length - 1];
    if (!load) throw new Error('No page load is pending.');
    load.reject(error);
    await flush();
  }
  return { actor, clock, loads, addressBar, suppressed, rejected, send, finishLoad, failLoad };
}

/** Lets settled promises deliver their results to the actors. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}
