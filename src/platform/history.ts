import type { BrowserHistory } from 'history';
import { fromCallback } from 'xstate';
import { normalizePath } from '../../core/routes';
import type { AppEvent } from '../../machines/app/app.machine';
import type { AddressBarUpdate } from '../../machines/app/app.setup';
import { NO_KEY, type ScrollMemory } from './scroll';
import { atOnce } from './tasks';

function fullPathOf(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/**
 * Where the browser is, normalised (`core/routes.ts`): `//home`, `///campaign/1` or `/a/../home` in the
 * address bar is this origin's `/home`, but to the app (and to any link resolved against it) a path starting
 * with `//` is another host. When normalising changed something, the history entry is replaced with the
 * normalised path first, as a server's redirect would, so the address bar and the app agree. An entry the
 * browser made itself (the first one, a `#fragment` followed outside the app) has no key in its state: it is
 * replaced with itself, which gives it one, so that its scroll position is its own.
 */
function arrive(
  history: BrowserHistory,
  location: { pathname: string; search: string; hash: string; key: string },
): string {
  const raw = fullPathOf(location);
  const normalised = normalizePath(raw) ?? '/';
  if (normalised !== raw || location.key === NO_KEY) history.replace(normalised, history.location.state);
  return normalised;
}

/** What the history adapter does with scroll positions when none is given (tests of the adapter alone). */
const noScrollMemory: ScrollMemory = { leave: () => {}, positionOf: () => null, takeOver: () => () => {} };

/**
 * Tells the app machine where the browser is: once at start (unless it booted on the prerendered page
 * already on screen), then on every back/forward step, normalised at this boundary. Our own pushes and
 * replacements also reach `listen`, but the machine made them, so only POP is news. A step is told at once,
 * after whatever an earlier input deferred (tasks.ts): a page the app kept in memory then comes up in the next
 * frame, as the address bar changes. The window's position on the entry being left is remembered first (the
 * browser does not scroll on its own while the app restores scrolling: `scroll.takeOver`).
 */
export function listenToHistory(history: BrowserHistory, scroll: ScrollMemory = noScrollMemory) {
  return fromCallback<AppEvent, { reportStart: boolean }>(({ sendBack, input }) => {
    const release = scroll.takeOver(() => history.location.key);
    const first = arrive(history, history.location);
    if (input.reportStart) sendBack({ type: 'nav.popped', to: first });
    let shown = history.location.key;
    const stop = history.listen(({ action, location }) => {
      if (action !== 'POP') {
        shown = location.key;
        return;
      }
      scroll.leave(shown);
      const to = arrive(history, location);
      shown = history.location.key;
      atOnce(() => sendBack({ type: 'nav.popped', to }));
    });
    return () => {
      stop();
      release();
    };
  });
}

/** The app machine's `updateAddressBar` action, on this history and scroll memory. */
export function addressBarActions(history: BrowserHistory, scroll: ScrollMemory) {
  return {
    updateAddressBar: (_: unknown, update: AddressBarUpdate | null) =>
      updateAddressBar(history, update, scroll),
  };
}

/** Updates the address bar as the machine asks; a new entry remembers where the window was on the one it leaves. */
export function updateAddressBar(
  history: BrowserHistory,
  update: AddressBarUpdate | null,
  scroll: ScrollMemory = noScrollMemory,
): void {
  if (update === null) return;
  if (update.type === 'push') {
    scroll.leave(history.location.key);
    history.push(update.to);
  } else history.replace(update.to);
}
