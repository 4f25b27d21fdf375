/**
 * The build region: the build manifest (route rules) and update detection.
 * - manifest: fetched about a second after start unless the connection is slow-2g, or at once when a
 *   navigation needs its rules; a failure is logged and the app goes on without rules.
 * - updates: `latest.json` is checked every interval (the first an interval after start), never while the
 *   tab is hidden or offline; becoming visible or online checks at once unless a check was recent, and a
 *   page restored from the back/forward cache checks at once (it may have been kept for hours). A
 *   different build id is an update: polling stops and the user is told. Failed checks back off.
 */
import { assign, not, raise } from 'xstate';
import { placeholder } from '../../core/placeholder';
import { parseLatestBuild, parseManifest } from '../../core/routeRules';
import { appSetup, type PayloadPreload, regionImplementations } from './app.setup';

export const buildImplementations = regionImplementations({
  actions: {
    logManifestFetchError: (_, _params: { error: unknown }) => placeholder('logManifestFetchError'),
    logManifestMatcherError: (_, _params: { manifest: unknown }) => placeholder('logManifestMatcherError'),
    notifyUpdateAvailable: () => placeholder('notifyUpdateAvailable'),
    /** Warm the `_payload.json` of the prerendered pages that the links on screen point to. */
    preloadPayloads: (_, _params: PayloadPreload) => placeholder('preloadPayloads'),
    assignPage: assign({
      page: ({ context, event }) =>
        // Stryker disable next-line ConditionalExpression: `assignPage` is only run by `page.changed` transitions (the updates region, `ready`, `dormant`), so the event-type check is always true where it runs.
        event.type === 'page.changed' ? { visible: event.visible, online: event.online } : context.page,
    }),
    assignRules: assign((_, params: { manifest: unknown }) => {
      const manifest = parseManifest(params.manifest);
      // Stryker disable next-line OptionalChaining: `assignRules` only runs behind `isValidManifest` with the same `event.output`, so `parseManifest` never answers null here and the optional chaining is never used.
      return { routeRules: manifest?.rules ?? null, prerendered: manifest?.prerendered ?? null };
    }),
    assignLatestBuild: assign(({ context }, params: { latest: unknown }) => ({
      // Stryker disable next-line OptionalChaining: `assignLatestBuild` only runs behind `isNewerBuild` (parsed build not null) or `isSameBuild` (parsed id equals the required string `buildId`, impossible for null), so `parseLatestBuild` never answers null here.
      build: { ...context.build, latestId: parseLatestBuild(params.latest)?.id ?? null, failedChecks: 0 },
    })),
    countFailedCheck: assign({
      build: ({ context }) => ({ ...context.build, failedChecks: context.build.failedChecks + 1 }),
    }),
  },
  guards: {
    isSameBuild: ({ context }, { latest }: { latest: unknown }) =>
      parseLatestBuild(latest)?.id === context.build.id,
    isValidManifest: (_, { manifest }: { manifest: unknown }) => parseManifest(manifest) !== null,
    /** The page is worth polling for: the tab is visible and online (after the event, when it is one). */
    isPageActive: ({ context, event }) =>
      event.type === 'page.changed'
        ? event.visible && event.online
        : context.page.visible && context.page.online,
    isSlowConnection: () => placeholder('isSlowConnection guard'),
  },
  delays: {
    manifestPreload: ({ context }) => context.timing.manifestPreloadMs,
    updateRecheckThrottle: ({ context }) => context.timing.updateRecheckThrottleMs,
    /** Hourly; after failed checks it backs off (doubling), never beyond the maximum. */
    nextUpdateCheck: ({ context }) =>
      Math.min(
        context.timing.updateCheckIntervalMs * 2 ** context.build.failedChecks,
        context.timing.maxUpdateCheckIntervalMs,
      ),
  },
});

export const buildRegion = appSetup.extend(buildImplementations).createStateConfig({
  type: 'parallel',
  states: {
    manifest: {
      initial: 'idle',
      states: {
        idle: {
          after: { manifestPreload: { guard: not('isSlowConnection'), target: 'loading' } },
          on: { 'manifest.needed': 'loading' },
        },
        loading: {
          invoke: {
            id: 'fetchManifest',
            src: 'fetchManifest',
            input: ({ context }) => ({ buildId: context.build.id }),
            onDone: [
              {
                guard: { type: 'isValidManifest', params: ({ event }) => ({ manifest: event.output }) },
                target: 'ready',
                actions: { type: 'assignRules', params: ({ event }) => ({ manifest: event.output }) },
              },
              {
                target: 'failed',
                actions: {
                  type: 'logManifestMatcherError',
                  params: ({ event }) => ({ manifest: event.output }),
                },
              },
            ],
            onError: {
              target: 'failed',
              actions: { type: 'logManifestFetchError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        // `manifestSettled`: the manifest has had its say (rules and prerendered pages, or none), what link
        // prefetching waits for (prefetchView in app.view.ts).
        ready: {
          tags: ['manifestSettled'],
          entry: raise({ type: 'manifest.settled' }),
          on: {
            // The manifest names the prerendered pages: warm the payloads of the links on screen (once, as it
            // arrives: about a second after start), unless the connection is slow-2g.
            'manifest.settled': {
              guard: not('isSlowConnection'),
              actions: {
                type: 'preloadPayloads',
                params: ({ context }) => ({
                  prerendered: context.prerendered ?? [],
                  buildId: context.build.id,
                }),
              },
            },
          },
        },
        failed: { tags: ['manifestSettled'], entry: raise({ type: 'manifest.settled' }) },
      },
    },
    updates: {
      initial: 'waiting',
      on: { 'page.changed': { actions: 'assignPage' } },
      states: {
        waiting: {
          after: {
            nextUpdateCheck: [{ guard: 'isPageActive', target: 'checking' }, { target: 'dormant' }],
          },
          on: { 'page.restored': { guard: 'isPageActive', target: 'checking' } },
          initial: 'throttled',
          states: {
            /** Just started or just checked: coming back to the tab does not check again yet. */
            throttled: { after: { updateRecheckThrottle: 'ready' } },
            ready: {
              on: {
                'page.changed': {
                  guard: 'isPageActive',
                  target: '#app.build.updates.checking',
                  actions: 'assignPage',
                },
              },
            },
          },
        },
        /** A check fell due while the tab was hidden or offline: it runs when the page is active again. */
        // (A page restored from the cache is visible again, which `page.changed` has said first.)
        dormant: {
          on: { 'page.changed': { guard: 'isPageActive', target: 'checking', actions: 'assignPage' } },
        },
        checking: {
          invoke: {
            id: 'checkForUpdate',
            src: 'fetchLatestBuild',
            onDone: [
              {
                guard: { type: 'isNewerBuild', params: ({ event }) => ({ latest: event.output }) },
                target: 'updatePending',
                actions: { type: 'assignLatestBuild', params: ({ event }) => ({ latest: event.output }) },
              },
              {
                guard: { type: 'isSameBuild', params: ({ event }) => ({ latest: event.output }) },
                target: 'waiting',
                actions: { type: 'assignLatestBuild', params: ({ event }) => ({ latest: event.output }) },
              },
              // Not the expected JSON (a captive portal's page, an error body): a failed check, never an update.
              { target: 'waiting', actions: 'countFailedCheck' },
            ],
            onError: { target: 'waiting', actions: 'countFailedCheck' },
          },
        },
        updatePending: { tags: ['updatePending'], entry: 'notifyUpdateAvailable' },
      },
    },
  },
});
