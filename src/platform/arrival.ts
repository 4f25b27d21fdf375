/**
 * Page arrival, as the app machine names it: the document title, and for each page after the first, the
 * top of the page, focus on its main heading and a polite announcement of its title.
 */

/** The live region the view renders (empty, so React never writes into it); this module fills it. */
export const ANNOUNCER_ATTRIBUTE = 'data-route-announcer';

/**
 * Runs after the view has rendered what the machine just committed. The machine's transition happens
 * first; React renders the new snapshot in a microtask; a message-channel task comes after both (and,
 * unlike a timer, is not held back by a paused page clock).
 */
function afterRender(run: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    run();
  };
  channel.port2.postMessage(null);
}

export function showDocumentTitle(title: string): void {
  document.title = title;
}

export function arriveAtPage(title: string): void {
  afterRender(() => {
    window.scrollTo(0, 0);
    document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
    const announcer = document.querySelector(`[${ANNOUNCER_ATTRIBUTE}]`);
    // The same words again are no news (a re-check of the page on screen): leave the region as it is.
    if (announcer && announcer.textContent !== title) announcer.textContent = title;
  });
}
