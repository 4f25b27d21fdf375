/**
 * New pages cross-fade where the browser has View Transitions (`document.startViewTransition`; the fade's length
 * is in src/index.css), as a multi-page site's navigations can. None where it would be in the way: the first page
 * (nothing to fade from), a person who asked for less motion (`prefers-reduced-motion: reduce`), and every step
 * back or forward (`noteHistoryStep`). A step shows the page it returns to in the frame the address bar changes
 * (docs/navigation.md): a fade would first hold the page being left on screen for a frame, to capture it, and
 * where the browser has animated the step itself (a swipe: `popstate` with `hasUAVisualTransition`) it would
 * repeat that animation.
 */
import type { AppView } from '../../machines/app/app.view';

/** The history entry (its state's key) the browser last stepped to, back or forward. */
let steppedEntry: unknown = null;

function entryKey(view: Window): unknown {
  return (view.history.state as { key?: unknown } | null)?.key ?? null;
}

/**
 * Notes a step back or forward to the entry with `key`, before the app hears of it (the history adapter calls it,
 * src/platform/app.ts): a `popstate` listener of this module's own would run after the history package's, which
 * may draw the page at once (Chromium calls a window's listeners in the order they were added, capturing or not).
 */
export function noteHistoryStep(key: unknown): void {
  steppedEntry = key;
}

/** Another page (or the error page instead of one, or back) replaces the one on screen: not the first page. */
export function isPageChange(previous: AppView, next: AppView): boolean {
  return (
    previous.pageShown &&
    (previous.pageKey !== next.pageKey || (previous.error === null) !== (next.error === null))
  );
}

interface Transition {
  readonly updateCallbackDone: Promise<void>;
  readonly ready: Promise<void>;
  readonly finished: Promise<void>;
}

interface TransitionDocument {
  startViewTransition?: (update: () => void) => Transition;
}

const ignore = () => {};

/**
 * Draws a page change through a view transition, when one is due: `draw` must put the new page in the DOM before
 * it returns (the browser captures it right after). `false` when there is none (the caller draws as usual).
 */
export function startPageTransition(draw: () => void, view: Window = window): boolean {
  const document = view.document as Document & TransitionDocument;
  // Every change drawn while the entry stepped to is on screen belongs to the step (a kept page can be drawn in
  // more than one change); the next entry (a link, a redirect) has another key.
  const stepped = steppedEntry !== null && steppedEntry === entryKey(view);
  if (typeof document.startViewTransition !== 'function' || stepped) return false;
  if (view.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return false;
  try {
    // A skipped transition (a hidden tab, the next page change coming before this one's fade is over) still
    // calls `draw`, without the animation; its promises then reject, which is no error of the page's.
    const transition = document.startViewTransition.call(document, draw);
    for (const promise of [transition.updateCallbackDone, transition.ready, transition.finished])
      promise.catch(ignore);
    return true;
  } catch {
    return false;
  }
}
