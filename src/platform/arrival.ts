/**
 * Page arrival, as the app machine names it: the document title, and once the view has drawn the page, where the
 * window scrolls and where focus goes (machines/app/app.setup.ts `Arrival` says how the page came):
 * - a new page: the top, or its `#fragment`'s target; focus on the main heading (or on that target); the title
 *   announced in the polite live region;
 * - a page returned to by Back or Forward: where the visitor was on that entry (remembered by src/platform/scroll.ts),
 *   with focus and announcement as for a new page, the focus not scrolling;
 * - the document's first page: what the browser did stays (its focus), but a reload returns to where the visitor
 *   was, and a `#fragment`'s target is scrolled to once drawn and given focus.
 */

import type { BrowserHistory } from 'history';
import type { Arrival, FragmentArrival } from '../../machines/app/app.setup';
import { isReturningDocument, type ScrollMemory, type ScrollPosition } from './scroll';
import { afterPaint } from './tasks';

/** The live region the view renders (empty, so React never writes into it); this module fills it. */
export const ANNOUNCER_ATTRIBUTE = 'data-route-announcer';

/** The arrival the machine asked for, waiting for the view to have drawn its page. */
let pending: (() => void) | null = null;

/**
 * The view has drawn what the machine committed last (src/platform/appActor.ts calls this from a layout effect, or
 * at once when there is nothing new to draw). When that is depends on the change, not on the machine's step:
 * a new page is drawn at once in the task that committed it (`flushSync`); other changes React renders in a
 * task of its own after the step. So arrival cannot follow the step by a fixed delay: it follows the render.
 */
export function pageRendered(): void {
  pending?.();
  pending = null;
}

export function showDocumentTitle(title: string): void {
  document.title = title;
}

/** The element a `#fragment` names (percent-escapes decoded, as the browser does), if the page has one. */
function fragmentTarget(hash: string): HTMLElement | null {
  const id = hash.replace(/^#/, '');
  if (id === '') return null;
  let decoded = id;
  try {
    decoded = decodeURIComponent(id);
  } catch {
    // A malformed escape names the id as written.
  }
  return document.getElementById(decoded) ?? document.getElementById(id);
}

/** The height of a header that stays on screen over the top of the page (the layout's sticky banner). */
function stuckHeaderHeight(): number {
  const header = document.querySelector<HTMLElement>('body header');
  if (!header) return 0;
  const { position } = getComputedStyle(header);
  return position === 'sticky' || position === 'fixed' ? header.getBoundingClientRect().height : 0;
}

/** Puts `target` at the top of the window, below the sticky header rather than under it. */
function scrollToTarget(target: HTMLElement): void {
  const top = target.getBoundingClientRect().top + window.scrollY - stuckHeaderHeight();
  window.scrollTo(0, Math.max(0, top));
}

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable]';

/**
 * Focus on a fragment's target, as a keyboard or screen-reader user expects after following the link: the target
 * itself (made focusable by script only, `tabindex="-1"`, if it is not), without scrolling again.
 */
function focusTarget(target: HTMLElement): void {
  if (!target.matches(FOCUSABLE)) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

function focusMainHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1');
  // Focusable by script only (out of the tab order): pages need not know that arrival focuses their heading.
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading?.focus({ preventScroll: true });
}

function announce(title: string): void {
  const announcer = document.querySelector(`[${ANNOUNCER_ATTRIBUTE}]`);
  // The same words again are no news (a re-check of the page on screen): leave the region as it is.
  if (announcer && announcer.textContent !== title) announcer.textContent = title;
}

/**
 * Arrives at the page the machine settled on, once it is drawn. `saved` is where the visitor was on this
 * history entry, for a page returned to or a document reloaded (`arrivalActions` below looks it up).
 */
export function arriveAtPage(arrival: Arrival, saved: ScrollPosition | null = null): void {
  pending = () => {
    const target = fragmentTarget(arrival.hash);
    if (arrival.kind === 'first') {
      if (saved) window.scrollTo(saved.x, saved.y);
      else if (target) {
        scrollToTarget(target);
        focusTarget(target);
      }
      return;
    }
    if (arrival.kind === 'return' && saved) window.scrollTo(saved.x, saved.y);
    else if (target) scrollToTarget(target);
    else window.scrollTo(0, 0);
    // Focus and the announcement once the page is on screen: `focus()` makes the browser style and lay out the
    // whole new page at once, inside the task that drew it, and then again for the frame
    // (docs/decisions/focus-after-the-paint.md). The scroll stays before the
    // paint: the page must never show at the old position; to the top it needs no layout.
    afterPaint(() => {
      if (arrival.kind === 'new' && target?.isConnected) focusTarget(target);
      else focusMainHeading();
      announce(arrival.title);
    });
  };
}

/**
 * Moves to a `#fragment` of the page on screen, once drawn: a link's target gets the window and focus; a step back
 * or forward over fragments returns to where the visitor was (or to the target, if that is not known).
 */
export function arriveAtFragment(arrival: FragmentArrival, saved: ScrollPosition | null = null): void {
  pending = () => {
    if (arrival.kind === 'return' && saved) {
      window.scrollTo(saved.x, saved.y);
      return;
    }
    const target = fragmentTarget(arrival.hash);
    if (!target) return;
    scrollToTarget(target);
    if (arrival.kind === 'new') focusTarget(target);
  };
}

/**
 * The app machine's arrival actions, on this history and scroll memory: where the visitor was on the entry on
 * screen is looked up for a page returned to, or for the first page of a document that was reloaded (or loaded
 * again by Back), not for a new one.
 */
export function arrivalActions(history: BrowserHistory, scroll: ScrollMemory) {
  const savedPosition = (kind: Arrival['kind']) =>
    kind === 'return' || (kind === 'first' && isReturningDocument())
      ? scroll.positionOf(history.location.key)
      : null;
  return {
    showDocumentTitle: (_: unknown, { title }: { title: string }) => showDocumentTitle(title),
    arriveAtPage: (_: unknown, arrival: Arrival) => arriveAtPage(arrival, savedPosition(arrival.kind)),
    arriveAtFragment: (_: unknown, arrival: FragmentArrival) =>
      arriveAtFragment(arrival, savedPosition(arrival.kind)),
  };
}
