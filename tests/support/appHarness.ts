/** Fakes for the app machine's effects: controllable actors, recorded actions, no browser. */
import {
  type AnyEventObject,
  createActor,
  fromCallback,
  fromPromise,
  type InspectionEvent,
  SimulatedClock,
} from 'xstate';
import { findRoute, type RouteRecord, routes } from '../../core/routes';
import {
  type AppEvent,
  type AppInput,
  appMachine,
  type LoadedPage,
  type LoadPageInput,
  type PayloadPreload,
  type ReloadClaim,
  type RevalidateInput,
} from '../../machines/app/app.machine';
import { routeGuards } from '../../machines/app/app.navigation';
import type { AddressBarUpdate, Arrival, FragmentArrival, RouteGuard } from '../../machines/app/app.setup';
import type { AppError } from '../../machines/app/errorCatalogue';
import { colorModeMachine } from '../../machines/colorMode/colorMode.machine';
import { sessionMachine } from '../../machines/session/session.machine';
import { createToasterMachine } from '../../machines/toast/toaster.machine';

const never = <T, I = unknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

/** The session child that never answers: tests tell the app about the session with `session.changed`. */
export const silentSession = sessionMachine.provide({
  actors: {
    fetchSession: never(),
    signIn: never<{ id: string; email: string; displayName: string }, { email: string; password: string }>(),
    signOut: never<void>(),
    saveProfile: never<{ id: string; email: string; displayName: string }, { displayName: string }>(),
  },
});

/** A toaster with silent listeners: toasts that machines send land in its context, and nothing touches a DOM. */
export const inertToaster = createToasterMachine({
  settings: {
    durationMs: 5000,
    maxVisible: 5,
    removeDelayMs: 200,
    swipe: { direction: 'right', thresholdPx: 50, startTouchPx: 10, startPx: 2 },
  },
  now: () => 0,
}).provide({
  actors: {
    listenToToastApi: fromCallback(() => () => {}),
    watchWindowFocus: fromCallback(() => () => {}),
    watchPageVisibility: fromCallback(() => () => {}),
    listenToHotkey: fromCallback(() => () => {}),
    listenToEscape: fromCallback(() => () => {}),
  },
});

/** A colour mode that watches nothing and touches no DOM: it only follows what the app tells it. */
export const inertColorMode = colorModeMachine.provide({
  actors: {
    watchSystemColorScheme: fromCallback(() => () => {}),
    watchStorage: fromCallback(() => () => {}),
  },
  actions: { applyColorMode: () => {}, persistPreference: () => {}, warnCannotForceSystem: () => {} },
});

/** Routes only tests have: a guard that is not registered, a redirect loop, an abort, an exit. */
export const testRoutes: readonly RouteRecord[] = [
  ...routes,
  { ...findRoute('index'), path: '/broken', guards: ['nope'] },
  { ...findRoute('index'), path: '/loop', guards: ['loop'] },
  { ...findRoute('index'), path: '/stop', guards: ['stop'] },
  { ...findRoute('index'), path: '/outside', guards: ['outside'] },
];

export const testGuards: Readonly<Record<string, RouteGuard>> = {
  ...routeGuards,
  loop: () => ({ type: 'redirect', to: '/loop' }),
  stop: () => ({ type: 'abort' }),
  outside: () => ({ type: 'redirect', to: 'https://evil.example/' }),
};

export const HOUR = 60 * 60 * 1000;

export const testInput: AppInput = {
  appName: 'campaign-web',
  timing: {
    slowNavigationMs: 250,
    manifestPreloadMs: 1000,
    updateCheckIntervalMs: HOUR,
    maxUpdateCheckIntervalMs: 4 * HOUR,
    updateRecheckThrottleMs: 5 * 60 * 1000,
  },
  maxRedirects: 3,
  maxRememberedPages: 2,
  maxEchoedPathLength: 40,
  buildId: 'build-1',
  routes: testRoutes,
  guards: testGuards,
};

/** The manifest the build writes for `build-1`. */
export const testManifest = {
  id: 'build-1',
  timestamp: 1,
  rules: { '/campaigns': { redirect: '/' } },
  prerendered: [],
};

const inertActions = {
  updateAddressBar: () => {},
  loadDocument: () => {},
  logSuppressedError: () => {},
  reportRejectedTarget: () => {},
  logManifestFetchError: () => {},
  logManifestMatcherError: () => {},
  notifyUpdateAvailable: () => {},
  preloadPayloads: () => {},
  showDocumentTitle: () => {},
  arriveAtPage: () => {},
  arriveAtFragment: () => {},
};

/** The app machine with inert effects, for graph traversal and path replay. */
export const inertApp = appMachine.provide({
  actors: {
    session: silentSession,
    toaster: inertToaster,
    colorMode: inertColorMode,
    listenToHistory: fromCallback(() => () => {}),
    watchPage: fromCallback(() => () => {}),
    loadPage: never<LoadedPage, LoadPageInput>(),
    revalidatePage: never<LoadedPage, RevalidateInput>(),
    detectCrawler: never<boolean>(),
    fetchManifest: never<unknown, { buildId: string }>(),
    fetchLatestBuild: never<unknown>(),
    claimReload: never<ReloadClaim, { path: string }>(),
  },
  actions: inertActions,
  guards: { isSlowConnection: () => false },
});

interface Deferred<T, I> {
  readonly input: I;
  readonly signal: AbortSignal;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function controllable<T, I>(list: Deferred<T, I>[]) {
  return fromPromise<T, I>(
    ({ input, signal }) =>
      new Promise<T>((resolve, reject) => {
        list.push({ input, signal, resolve, reject });
      }),
  );
}

export interface StartOptions {
  readonly visitorIsCrawler?: boolean;
  readonly slowConnection?: boolean;
  /** By default the manifest loads at once; `manual` leaves its fetch to the test. */
  readonly manifest?: 'instant' | 'manual';
  readonly input?: Partial<AppInput>;
  /** Sees the actor's inspection events (the report recorder of src/platform/eventLog.ts in tests). */
  readonly inspect?: (event: InspectionEvent) => void;
}

/**
 * A running app actor whose effects the test controls and reads. Unless the manifest is `manual`, the
 * clock is moved past the manifest preload first, so the app is as it is a second after start.
 */
export async function startApp(options: StartOptions = {}) {
  const clock = new SimulatedClock();
  const loads: Deferred<LoadedPage, LoadPageInput>[] = [];
  const manifests: Deferred<unknown, { buildId: string }>[] = [];
  const latest: Deferred<unknown, unknown>[] = [];
  const claims: Deferred<ReloadClaim, { path: string }>[] = [];
  const revalidations: Deferred<LoadedPage, RevalidateInput>[] = [];
  const preloads: PayloadPreload[] = [];
  const historyStarts: { reportStart: boolean }[] = [];
  const addressBar: AddressBarUpdate[] = [];
  const documents: string[] = [];
  const suppressed: AppError[] = [];
  const rejected: string[] = [];
  const logs: string[] = [];
  const titles: string[] = [];
  const arrivals: Arrival[] = [];
  const fragmentArrivals: FragmentArrival[] = [];
  let updatesNotified = 0;
  const logic = appMachine.provide({
    actors: {
      session: silentSession,
      toaster: inertToaster,
      colorMode: inertColorMode,
      listenToHistory: fromCallback<AppEvent, { reportStart: boolean }>(({ input }) => {
        historyStarts.push(input);
        return () => {};
      }),
      watchPage: fromCallback(() => () => {}),
      loadPage: controllable(loads),
      revalidatePage: controllable(revalidations),
      detectCrawler: fromPromise(async () => options.visitorIsCrawler ?? false),
      fetchManifest:
        options.manifest === 'manual'
          ? controllable(manifests)
          : fromPromise<unknown, { buildId: string }>(async () => testManifest),
      fetchLatestBuild: controllable(latest),
      claimReload: controllable(claims),
    },
    actions: {
      updateAddressBar: (_, update) => {
        if (update) addressBar.push(update);
      },
      loadDocument: (_, { url }) => {
        documents.push(url);
      },
      logSuppressedError: (_, { error }) => {
        suppressed.push(error);
      },
      reportRejectedTarget: (_, { to }) => {
        rejected.push(to);
      },
      logManifestFetchError: () => {
        logs.push('[nuxt] Error fetching app manifest.');
      },
      logManifestMatcherError: () => {
        logs.push('[nuxt] Error creating app manifest matcher.');
      },
      notifyUpdateAvailable: () => {
        updatesNotified += 1;
      },
      preloadPayloads: (_, params) => {
        preloads.push(params);
      },
      showDocumentTitle: (_, { title }) => {
        titles.push(title);
      },
      arriveAtPage: (_, arrival) => {
        arrivals.push(arrival);
      },
      arriveAtFragment: (_, arrival) => {
        fragmentArrivals.push(arrival);
      },
    },
    guards: { isSlowConnection: () => options.slowConnection ?? false },
  });
  const actor = createActor(logic, {
    clock,
    input: { ...testInput, ...options.input },
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
  actor.start();
  if (options.manifest !== 'manual') {
    clock.increment(testInput.timing.manifestPreloadMs);
    await flush();
  }
  const send = (event: AnyEventObject) => actor.send(event as Parameters<typeof actor.send>[0]);
  async function settle<T, I>(
    list: Deferred<T, I>[],
    outcome: { value: T } | { error: unknown },
    newest = false,
  ) {
    const pending = newest ? list.pop() : list.shift();
    if (!pending) throw new Error('Nothing of that kind is pending.');
    if ('value' in outcome) pending.resolve(outcome.value);
    else pending.reject(outcome.error);
    await flush();
  }
  return {
    actor,
    clock,
    loads,
    manifests,
    latest,
    claims,
    revalidations,
    preloads,
    historyStarts,
    addressBar,
    documents,
    suppressed,
    rejected,
    logs,
    /** Every document title shown, and every page arrival (focus, scroll, announcement), in order. */
    titles,
    arrivals,
    /** Every move to a #fragment of the page on screen. */
    fragmentArrivals,
    /** The titles of the arrivals after the document's first page: those that move focus and announce. */
    announced: () => arrivals.filter(({ kind }) => kind !== 'first').map(({ title }) => title),
    updatesNotified: () => updatesNotified,
    send,
    /** Settles the newest page load (older ones were superseded). */
    finishLoad: (data: unknown = 'data', title?: string) => settle(loads, { value: { data, title } }, true),
    failLoad: (error: unknown) => settle(loads, { error }, true),
    answerManifest: (value: unknown) => settle(manifests, { value }),
    failManifest: (error: unknown) => settle(manifests, { error }),
    answerLatest: (value: unknown) => settle(latest, { value }),
    failLatest: (error: unknown) => settle(latest, { error }),
    answerClaim: (value: ReloadClaim) => settle(claims, { value }),
    answerRevalidation: (data: unknown, title?: string) =>
      settle(revalidations, { value: { data, ...(title ? { title } : {}) } }),
    failRevalidation: (error: unknown) => settle(revalidations, { error }),
  };
}

/** Lets settled promises deliver their results to the actors. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}
