import type { BrowserHistory } from 'history';
import { fromCallback } from 'xstate';
import type { AppEvent } from '../../machines/app.machine';
import type { AddressBarUpdate } from '../../machines/app.utils';

function fullPathOf(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/**
 * Tells the app machine where the browser is: once at start, then on every back/forward step. Our own
 * pushes and replacements also reach `listen`, but the machine made them, so only POP is news.
 */
export function listenToHistory(history: BrowserHistory) {
  return fromCallback<AppEvent>(({ sendBack }) => {
    sendBack({ type: 'nav.popped', to: fullPathOf(history.location) });
    return history.listen(({ action, location }) => {
      if (action === 'POP') sendBack({ type: 'nav.popped', to: fullPathOf(location) });
    });
  });
}

export function updateAddressBar(history: BrowserHistory, update: AddressBarUpdate | null): void {
  if (update === null) return;
  if (update.type === 'push') history.push(update.to);
  else history.replace(update.to);
}
