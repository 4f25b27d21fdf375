import type { BrowserHistory } from 'history';
import { type AppInput, appMachine } from '../../machines/app.machine';
import type { AppConfig } from '../config';
import { loadPage } from '../pages/registry';
import { detectCrawler } from './crawler';
import { listenToHistory, updateAddressBar } from './history';
import { browserSessionMachine } from './session';

/** The app machine with the browser's implementations of every effect it names. */
export function createBrowserApp(history: BrowserHistory) {
  return appMachine.provide({
    actors: {
      session: browserSessionMachine,
      listenToHistory: listenToHistory(history),
      loadPage,
      detectCrawler,
    },
    actions: {
      updateAddressBar: (_, update) => updateAddressBar(history, update),
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
    },
  });
}

export function appInputFrom(config: AppConfig): AppInput {
  return {
    slowNavigationMs: config.slowNavigationMs,
    maxRedirects: config.maxRedirects,
    maxEchoedPathLength: config.maxEchoedPathLength,
  };
}
