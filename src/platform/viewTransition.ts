/**
 * Page changes cross-fade where the browser has View Transitions (`document.startViewTransition`; the fade's
 * length is in src/index.css), as a multi-page site's navigations can. None where it would be in the way: the
 * first page (nothing to fade from), a person who asked for less motion (`prefers-reduced-motion: reduce`), and a
 * step back or forward the browser has already animated itself (a swipe: `popstate` with
 * `hasUAVisualTransition`), which a second animation would repeat.
 */
import type { AppView } from '../../machines/app/app.view';

/** The history entry (its state's key) the browser animated a step to, until the app has shown it. */
let animatedEntry: unknown = null;

function entryKey(view: Window): unknown {
  return (view.history.state as { key?: unknown } | null)?.key ?? null;
}

/** Notes each back/forward step the browser animated itself; returns what stops listening. */
export function watchBrowserTransitions(view: Window = window): () => void {
  const onPopState = (event: PopStateEvent) => {
    const animated = (event as PopStateEvent & { hasUAVisualTransition?: boolean }).hasUAVisualTransition;
    animatedEntry = animated === true ? entryKey(view) : null;
  };
  // Capturing, so it runs before the history package's own listener, which may show the page at once.
  view.addEventListener('popstate', onPopState, { capture: true });
  return () => view.removeEventListener('popstate', onPopState, { capture: true });
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
  const browserAnimated = animatedEntry !== null && animatedEntry === entryKey(view);
  animatedEntry = null;
  if (typeof document.startViewTransition !== 'function' || browserAnimated) return false;
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
