import type { BrowserHistory } from 'history';
import { fromCallback } from 'xstate';
import type { AppEvent } from '../../machines/app.machine';
import type { AddressBarUpdate } from '../../machines/app.utils';
import { normalizePath } from '../../machines/routes';
import { afterPaint } from './tasks';

function fullPathOf(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/**
 * Where the browser is, normalised (`machines/routes.ts`): `//home`, `///campaign/1` or `/a/../home` in the
 * address bar is this origin's `/home`, but to the app (and to any link resolved against it) a path starting
 * with `//` is another host. When normalising changed something, the history entry is replaced with the
 * normalised path first, as a server's redirect would, so the address bar and the app agree.
 */
function arrive(
  history: BrowserHistory,
  location: { pathname: string; search: string; hash: string },
): string {
  const raw = fullPathOf(location);
  const normalised = normalizePath(raw) ?? '/';
  if (normalised !== raw) history.replace(normalised, history.location.state);
  return normalised;
}

/**
 * Tells the app machine where the browser is: once at start (unless it booted on the prerendered page
 * already on screen), then on every back/forward step, normalised at this boundary. Our own pushes and
 * replacements also reach `listen`, but the machine made them, so only POP is news. A step is told after the
 * browser has painted (a low-priority task: no input asked for a frame), so the machine's step and the page's
 * render are no part of its task; the address bar is still normalised at once.
 */
export function listenToHistory(history: BrowserHistory) {
  return fromCallback<AppEvent, { reportStart: boolean }>(({ sendBack, input }) => {
    if (input.reportStart) sendBack({ type: 'nav.popped', to: arrive(history, history.location) });
    return history.listen(({ action, location }) => {
      if (action !== 'POP') return;
      const to = arrive(history, location);
      afterPaint(() => sendBack({ type: 'nav.popped', to }));
    });
  });
}

export function updateAddressBar(history: BrowserHistory, update: AddressBarUpdate | null): void {
  if (update === null) return;
  if (update.type === 'push') history.push(update.to);
  else history.replace(update.to);
}
