import type { BrowserHistory } from 'history';
import { type AppInput, appMachine } from '../../machines/app.machine';
import { type AppConfig, config } from '../config';
import { loadPage } from '../pages/registry';
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
import { listenToHistory, updateAddressBar } from './history';
import { browserSessionMachine } from './session';
import { toast } from './toast';
import { createBrowserToaster } from './toaster';

/** The app machine with the browser's implementations of every effect it names. */
export function createBrowserApp(history: BrowserHistory) {
  return appMachine.provide({
    actors: {
      session: browserSessionMachine,
      toaster: createBrowserToaster(config.toast),
      colorMode: createBrowserColorMode(config.colorMode),
      listenToHistory: listenToHistory(history),
      watchPage,
      loadPage,
      detectCrawler,
      fetchManifest,
      fetchLatestBuild,
      claimReload: claimPageReload,
    },
    actions: {
      updateAddressBar: (_, update) => updateAddressBar(history, update),
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
    slowNavigationMs: config.slowNavigationMs,
    maxRedirects: config.maxRedirects,
    maxEchoedPathLength: config.maxEchoedPathLength,
    buildId: config.build.id,
    manifestPreloadMs: config.build.manifestPreloadMs,
    updateCheckIntervalMs: config.build.updateCheckIntervalMs,
    maxUpdateCheckIntervalMs: config.build.maxUpdateCheckIntervalMs,
    updateRecheckThrottleMs: config.build.updateRecheckThrottleMs,
  };
}
