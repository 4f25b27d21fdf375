/**
 * The build region: the build manifest (route rules) and update detection.
 * - manifest: fetched about a second after start unless the connection is slow-2g, or at once when a
 *   navigation needs its rules; a failure is logged and the app goes on without rules.
 * - updates: `latest.json` is checked every interval (the first an interval after start), never while the
 *   tab is hidden or offline; becoming visible or online checks at once unless a check was recent. A
 *   different build id is an update: polling stops and the user is told. Failed checks back off.
 */
import { not, raise } from 'xstate';
import { appSetup } from './app.setup';

export const buildRegion = appSetup.createStateConfig({
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
        ready: {
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
        failed: { entry: raise({ type: 'manifest.settled' }) },
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
