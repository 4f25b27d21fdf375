// @vitest-environment happy-dom
// Page arrival (src/platform/arrival.ts), as a keyboard or screen-reader user meets it: the machine asks for an
// arrival, and once the view has drawn the page the window is at the top, focus is on the page's main heading and
// the live region says the new title, once.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCER_ATTRIBUTE, arriveAtPage, pageRendered, showDocumentTitle } from '../src/platform/arrival';

/** The layout the app renders: a banner with its own heading, the live region, and the page in `<main>`. */
function renderLayout({ announcer = true, heading = true } = {}) {
  document.body.innerHTML = `
    <header><h1 tabindex="-1">campaign-web</h1><a href="/profile">Profile</a></header>
    ${announcer ? `<p ${ANNOUNCER_ATTRIBUTE} aria-live="polite"></p>` : ''}
    <main>${heading ? '<h1 tabindex="-1">Campaigns</h1>' : '<p>No heading</p>'}</main>`;
  return {
    link: document.querySelector<HTMLElement>('header a') as HTMLElement,
    heading: document.querySelector<HTMLElement>('main h1'),
    announcer: document.querySelector(`[${ANNOUNCER_ATTRIBUTE}]`),
  };
}

/** Where the visitor was on the page before: scrolled down, focus on a link. */
function visitorScrolledAndFocused(link: HTMLElement) {
  window.scrollTo(0, 800);
  link.focus();
}

beforeEach(() => {
  // An arrival left over from another test must not run in this one.
  pageRendered();
  window.scrollTo(0, 0);
});

describe('showDocumentTitle', () => {
  it('puts the title in the tab', () => {
    showDocumentTitle('Campaigns | campaign-web');
    expect(document.title).toBe('Campaigns | campaign-web');
  });
});

describe('arriveAtPage', () => {
  it('waits for the view to draw the page: nothing moves before', () => {
    const { link, announcer } = renderLayout();
    visitorScrolledAndFocused(link);
    arriveAtPage('Campaigns');
    expect(window.scrollY).toBe(800);
    expect(document.activeElement).toBe(link);
    expect(announcer?.textContent).toBe('');
  });

  it('once drawn: the top of the page, focus on the main heading, and the title announced', () => {
    const { link, heading, announcer } = renderLayout();
    visitorScrolledAndFocused(link);
    arriveAtPage('Campaigns');
    pageRendered();
    expect(window.scrollY).toBe(0);
    expect(document.activeElement).toBe(heading);
    expect(announcer?.textContent).toBe('Campaigns');
  });

  it('focuses the heading without scrolling to it: the page is already at its top', () => {
    const { heading } = renderLayout();
    const focus = vi.spyOn(heading as HTMLElement, 'focus');
    arriveAtPage('Campaigns');
    pageRendered();
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
  });

  it('arrives once: a later render of the same page leaves the visitor where they went', () => {
    const { link, announcer } = renderLayout();
    arriveAtPage('Campaigns');
    pageRendered();
    visitorScrolledAndFocused(link);
    if (announcer) announcer.textContent = '';
    pageRendered();
    expect(window.scrollY).toBe(800);
    expect(document.activeElement).toBe(link);
    expect(announcer?.textContent).toBe('');
  });

  it('makes the latest arrival asked for, when two come before the render', () => {
    const { announcer } = renderLayout();
    arriveAtPage('Campaigns');
    arriveAtPage('Profile');
    pageRendered();
    expect(announcer?.textContent).toBe('Profile');
  });

  it('leaves the live region as it is when the title is the same, so nothing is announced again', () => {
    const { announcer } = renderLayout();
    arriveAtPage('Campaigns');
    pageRendered();
    const changes = new MutationObserver(() => {});
    changes.observe(announcer as Element, { childList: true, characterData: true, subtree: true });
    arriveAtPage('Campaigns');
    pageRendered();
    expect(changes.takeRecords()).toEqual([]);
    expect(announcer?.textContent).toBe('Campaigns');
    changes.disconnect();
  });

  it('still goes to the top on a page without a main heading or a live region', () => {
    const { link } = renderLayout({ announcer: false, heading: false });
    visitorScrolledAndFocused(link);
    arriveAtPage('Not found');
    expect(() => pageRendered()).not.toThrow();
    expect(window.scrollY).toBe(0);
  });
});

describe('pageRendered', () => {
  it('does nothing when no arrival was asked for (the first page, or a re-render)', () => {
    const { link, announcer } = renderLayout();
    visitorScrolledAndFocused(link);
    pageRendered();
    expect(window.scrollY).toBe(800);
    expect(document.activeElement).toBe(link);
    expect(announcer?.textContent).toBe('');
  });
});

describe('the live region the view renders', () => {
  it('is found by the attribute this module names, as the layout renders it', async () => {
    // Loaded inside the test: the name is set while the module loads, and a mutation tool credits that only
    // to a test that loads it.
    vi.resetModules();
    const arrival = await import('../src/platform/arrival');
    document.body.innerHTML = `<p ${arrival.ANNOUNCER_ATTRIBUTE} aria-live="polite"></p><main><h1 tabindex="-1">Profile</h1></main>`;
    arrival.arriveAtPage('Profile');
    arrival.pageRendered();
    expect(document.querySelector('[aria-live]')?.textContent).toBe('Profile');
  });
});

describe('the heading arrival focuses', () => {
  it('is made focusable by script, out of the tab order: a page need not mark it', () => {
    document.body.innerHTML = '<main><h1>Campaigns</h1><a href="/campaign/1">First</a></main>';
    const heading = document.querySelector<HTMLElement>('main h1') as HTMLElement;
    arriveAtPage('Campaigns');
    pageRendered();
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(document.activeElement).toBe(heading);
  });

  it('keeps a tabindex the page gave it', () => {
    document.body.innerHTML = '<main><h1 tabindex="0">Campaigns</h1></main>';
    arriveAtPage('Campaigns');
    pageRendered();
    expect(document.querySelector('main h1')?.getAttribute('tabindex')).toBe('0');
  });
});
