import type { BrowserHistory } from 'history';
import {
  type AppInput,
  type AppPageLoader,
  type AppPageRevalidator,
  appMachine,
} from '../../machines/app/app.machine';
import { type AppConfig, config } from '../config';
import { arrivalActions } from './arrival';
import {
  claimPageReload,
  fetchLatestBuild,
  fetchManifest,
  isSlowConnection,
  loadDocument,
  watchPage,
} from './build';
import { createBrowserColorMode } from './colorMode';
import { detectCrawler } from './crawler';
import { addressBarActions, listenToHistory } from './history';
import { preloadPayloads } from './payload';
import { sessionStorageOrNull } from './reloadGuard';
import { createScrollMemory } from './scroll';
import { browserSessionMachine } from './session';
import { toast } from './toast';
import { createBrowserToaster } from './toaster';

/** What the app needs from the page registry; src/start.tsx passes it in, as platform code imports no pages. */
export interface PageRegistry {
  readonly loadPage: AppPageLoader;
  readonly revalidatePage: AppPageRevalidator;
}

/** The app machine with the browser's implementations of every effect it names. */
export function createBrowserApp(history: BrowserHistory, { loadPage, revalidatePage }: PageRegistry) {
  const scroll = createScrollMemory(sessionStorageOrNull(), config.scroll);
  return appMachine.provide({
    actors: {
      session: browserSessionMachine,
      toaster: createBrowserToaster(config.toast),
      colorMode: createBrowserColorMode(config.colorMode),
      listenToHistory: listenToHistory(history, scroll),
      watchPage,
      loadPage,
      revalidatePage,
      detectCrawler,
      fetchManifest,
      fetchLatestBuild,
      claimReload: claimPageReload,
    },
    actions: {
      // A navigation's effects in the browser: the address bar (./history.ts), then the title, scroll, focus and
      // announcement of the page it settles on (./arrival.ts).
      ...addressBarActions(history, scroll),
      ...arrivalActions(history, scroll),
      preloadPayloads: (_, { prerendered, buildId }) => preloadPayloads(prerendered, buildId),
      loadDocument: (_, { url }) => loadDocument(url),
      logSuppressedError: (_, { error }) => {
        console.error(
          `[campaign-web] Not rendering error page for bot with user agent \`${navigator.userAgent}\`:`,
          error,
        );
      },
      reportRejectedTarget: (_, { to }) => {
        console.warn(
          `[campaign-web] Ignored a navigation to ${JSON.stringify(to.slice(0, 200))}: only paths inside this app can be opened.`,
        );
      },
      // The spec's own words, so operators searching logs for them find them.
      logManifestFetchError: (_, { error }) => console.error('[nuxt] Error fetching app manifest.', error),
      logManifestMatcherError: (_, { manifest }) =>
        console.error('[nuxt] Error creating app manifest matcher.', manifest),
      // Background: it waits for the user instead of interrupting; `Reload` is for those who want it now.
      notifyUpdateAvailable: () => {
        toast.add({
          // Stryker disable next-line StringLiteral: The id only has to be fixed, so that a second update check finding the new build changes the toast on screen instead of adding another (tests/platform/app.test.ts checks that two notifications carry the same id). An empty string is fixed too: `toast.add` keeps it (`options.id ?? ...` replaces only undefined), and the toaster compares ids with `===` and `id == null` (machines/toast/toaster.entries.ts), so two adds with id '' made one open toast, as two with 'update-available' did (checked with the toaster machine). No other code names the id (grep for 'update-available' over src, machines and e2e finds only this line), and product toasts get `toast-N` or their own names, never '', so the empty id meets no other toast. Nothing observable changes.
          id: 'update-available',
          title: 'A new version is available',
          description: 'Reload to use it, or keep going: the next page you open will be the new version.',
          type: 'background',
          duration: Number.POSITIVE_INFINITY,
          actions: [{ label: 'Reload', onClick: () => window.location.reload() }],
        });
      },
    },
    guards: { isSlowConnection },
  });
}

export function appInputFrom(config: AppConfig): AppInput {
  return {
    appName: config.appName,
    maxRedirects: config.maxRedirects,
    maxEchoedPathLength: config.maxEchoedPathLength,
    maxRememberedPages: config.maxRememberedPages,
    buildId: config.build.id,
    timing: config.timing,
  };
}
