/**
 * Page arrival, as the app machine names it: the document title, and for each page after the first, the
 * top of the page, focus on its main heading and a polite announcement of its title.
 */

/** The live region the view renders (empty, so React never writes into it); this module fills it. */
export const ANNOUNCER_ATTRIBUTE = 'data-route-announcer';

/** The arrival the machine asked for, waiting for the view to have drawn its page. */
let pending: (() => void) | null = null;

/**
 * The view has drawn what the machine committed last (src/ui/appActor.ts calls this from a layout effect, or
 * at once when there is nothing new to draw). React renders a navigation as a transition, in tasks after the
 * machine's step, so arrival cannot follow the step by a fixed delay: it follows the render.
 */
export function pageRendered(): void {
  pending?.();
  pending = null;
}

export function showDocumentTitle(title: string): void {
  document.title = title;
}

export function arriveAtPage(title: string): void {
  pending = () => {
    window.scrollTo(0, 0);
    const heading = document.querySelector<HTMLElement>('main h1');
    // Focusable by script only (out of the tab order): pages need not know that arrival focuses their heading.
    if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    heading?.focus({ preventScroll: true });
    const announcer = document.querySelector(`[${ANNOUNCER_ATTRIBUTE}]`);
    // The same words again are no news (a re-check of the page on screen): leave the region as it is.
    if (announcer && announcer.textContent !== title) announcer.textContent = title;
  };
}
