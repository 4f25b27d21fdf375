// @vitest-environment happy-dom
// Page arrival (src/platform/arrival.ts), as a keyboard or screen-reader user meets it: the machine asks for an
// arrival, and once the view has drawn the page the window is where it should be (the top of a new page, where the
// visitor was on a page returned to, a #fragment's target), focus is on the page's main heading (or that target) and
// the live region says the new title, once. The document's first page keeps the browser's focus.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Arrival } from '../../machines/app/app.setup';
import {
  ANNOUNCER_ATTRIBUTE,
  arriveAtFragment,
  arriveAtPage,
  pageRendered,
  showDocumentTitle,
} from '../../src/platform/arrival';

/** The layout the app renders: a sticky banner, the live region, and the page in `<main>` with two sections. */
function renderLayout({ announcer = true, heading = true } = {}) {
  document.body.innerHTML = `
    <header style="position: sticky; top: 0"><a href="/profile">Profile</a></header>
    ${announcer ? `<p ${ANNOUNCER_ATTRIBUTE} aria-live="polite"></p>` : ''}
    <main>${heading ? '<h1 tabindex="-1">Campaigns</h1>' : '<p>No heading</p>'}
      <section><h2 id="progress">Progress</h2><p id="raised">Raised so far</p></section>
      <a id="donate" href="/donate">Donate</a>
      <p id="caf%C3%A9s">Not the café</p><p id="cafés">Cafés</p>
    </main>`;
  const header = document.querySelector('header') as HTMLElement;
  // happy-dom lays nothing out: the banner is 64 px tall, and each target sits where a test says.
  vi.spyOn(header, 'getBoundingClientRect').mockReturnValue({ height: 64 } as DOMRect);
  return {
    link: document.querySelector<HTMLElement>('header a') as HTMLElement,
    heading: document.querySelector<HTMLElement>('main h1'),
    announcer: document.querySelector(`[${ANNOUNCER_ATTRIBUTE}]`),
  };
}

/** Puts the element with `id` this far below the top of the window. */
function placed(id: string, top: number): HTMLElement {
  const element = document.getElementById(id) as HTMLElement;
  vi.spyOn(element, 'getBoundingClientRect').mockReturnValue({ top } as DOMRect);
  return element;
}

/** Where the visitor was on the page before: scrolled down, focus on a link. */
function visitorScrolledAndFocused(link: HTMLElement) {
  window.scrollTo(0, 800);
  link.focus();
}

const newPage = (title: string, hash = ''): Arrival => ({ title, kind: 'new', hash });

beforeEach(() => {
  // An arrival left over from another test must not run in this one.
  pageRendered();
  window.scrollTo(0, 0);
  vi.restoreAllMocks();
});

describe('showDocumentTitle', () => {
  it('puts the title in the tab', () => {
    showDocumentTitle('Campaigns | campaign-web');
    expect(document.title).toBe('Campaigns | campaign-web');
  });
});

describe('arriveAtPage: a new page', () => {
  it('waits for the view to draw the page: nothing moves before', () => {
    const { link, announcer } = renderLayout();
    visitorScrolledAndFocused(link);
    arriveAtPage(newPage('Campaigns'));
    expect(window.scrollY).toBe(800);
    expect(document.activeElement).toBe(link);
    expect(announcer?.textContent).toBe('');
  });

  it('once drawn: the top of the page, focus on the main heading, and the title announced', () => {
    const { link, heading, announcer } = renderLayout();
    visitorScrolledAndFocused(link);
    arriveAtPage(newPage('Campaigns'));
    pageRendered();
    expect(window.scrollY).toBe(0);
    expect(document.activeElement).toBe(heading);
    expect(announcer?.textContent).toBe('Campaigns');
  });

  it('scrolls before the page is painted, but focuses and announces only after its frame', () => {
    // Chromium: a task scheduler and animation frames, here fakes that hold what they are given.
    const tasks: (() => void)[] = [];
    const frames: (() => void)[] = [];
    vi.stubGlobal('scheduler', { postTask: (task: () => void) => tasks.push(task) });
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
    try {
      const { link, heading, announcer } = renderLayout();
      visitorScrolledAndFocused(link);
      arriveAtPage(newPage('Campaigns'));
      pageRendered();
      expect(window.scrollY).toBe(0);
      expect(document.activeElement).toBe(link);
      expect(announcer?.textContent).toBe('');
      for (const frame of frames.splice(0)) frame();
      for (const task of tasks.splice(0)) task();
      expect(document.activeElement).toBe(heading);
      expect(announcer?.textContent).toBe('Campaigns');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('focuses the heading without scrolling to it: the page is already at its top', () => {
    const { heading } = renderLayout();
    const focus = vi.spyOn(heading as HTMLElement, 'focus');
    arriveAtPage(newPage('Campaigns'));
    pageRendered();
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
  });

  it('arrives once: a later render of the same page leaves the visitor where they went', () => {
    const { link, announcer } = renderLayout();
    arriveAtPage(newPage('Campaigns'));
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
    arriveAtPage(newPage('Campaigns'));
    arriveAtPage(newPage('Profile'));
    pageRendered();
    expect(announcer?.textContent).toBe('Profile');
  });

  it('leaves the live region as it is when the title is the same, so nothing is announced again', () => {
    const { announcer } = renderLayout();
    arriveAtPage(newPage('Campaigns'));
    pageRendered();
    const changes = new MutationObserver(() => {});
    changes.observe(announcer as Element, { childList: true, characterData: true, subtree: true });
    arriveAtPage(newPage('Campaigns'));
    pageRendered();
    expect(changes.takeRecords()).toEqual([]);
    expect(announcer?.textContent).toBe('Campaigns');
    changes.disconnect();
  });

  it('still goes to the top on a page without a main heading or a live region', () => {
    const { link } = renderLayout({ announcer: false, heading: false });
    visitorScrolledAndFocused(link);
    arriveAtPage(newPage('Not found'));
    expect(() => pageRendered()).not.toThrow();
    expect(window.scrollY).toBe(0);
  });

  it('with a #fragment: its target at the top, just below the sticky header, focused; the title announced', () => {
    const { announcer } = renderLayout();
    const target = placed('progress', 900);
    arriveAtPage(newPage('Garden', '#progress'));
    pageRendered();
    expect(window.scrollY).toBe(900 - 64);
    expect(document.activeElement).toBe(target);
    // A heading is not focusable of itself: the script makes it so, out of the tab order.
    expect(target.getAttribute('tabindex')).toBe('-1');
    expect(announcer?.textContent).toBe('Garden');
  });

  it('focuses a focusable target as it is, without a tabindex, and without scrolling again', () => {
    renderLayout();
    const target = placed('donate', 300);
    const focus = vi.spyOn(target, 'focus');
    arriveAtPage(newPage('Garden', '#donate'));
    pageRendered();
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
    expect(document.activeElement).toBe(target);
    expect(target.hasAttribute('tabindex')).toBe(false);
  });

  it('reads the fragment as the browser does, percent-escapes decoded', () => {
    renderLayout();
    const target = placed('cafés', 400);
    arriveAtPage(newPage('Garden', '#caf%C3%A9s'));
    pageRendered();
    expect(document.activeElement).toBe(target);
    expect(window.scrollY).toBe(400 - 64);
  });

  it('a target above the header’s height goes to the very top, never above it', () => {
    renderLayout();
    placed('progress', 10);
    arriveAtPage(newPage('Garden', '#progress'));
    pageRendered();
    expect(window.scrollY).toBe(0);
  });

  it('a #fragment that names nothing on the page leaves it at the top, focus on the main heading', () => {
    const { link, heading } = renderLayout();
    visitorScrolledAndFocused(link);
    arriveAtPage(newPage('Garden', '#nothing-here'));
    pageRendered();
    expect(window.scrollY).toBe(0);
    expect(document.activeElement).toBe(heading);
  });

  it('starts at the top even when a position is known for the entry: a new page is no return', () => {
    renderLayout();
    window.scrollTo(0, 500);
    arriveAtPage(newPage('Garden'), { x: 0, y: 300 });
    pageRendered();
    expect(window.scrollY).toBe(0);
  });
});

describe('arriveAtPage: a page returned to by Back or Forward', () => {
  const back: Arrival = { title: 'Campaigns', kind: 'return', hash: '' };

  it('returns to where the visitor was, focuses the main heading without scrolling, announces the title', () => {
    const { link, heading, announcer } = renderLayout();
    visitorScrolledAndFocused(link);
    const focus = vi.spyOn(heading as HTMLElement, 'focus');
    arriveAtPage(back, { x: 0, y: 1234 });
    pageRendered();
    expect(window.scrollY).toBe(1234);
    expect(focus).toHaveBeenCalledWith({ preventScroll: true });
    expect(document.activeElement).toBe(heading);
    expect(announcer?.textContent).toBe('Campaigns');
  });

  it('prefers where the visitor was over the #fragment, which they may have scrolled away from', () => {
    renderLayout();
    placed('progress', 900);
    arriveAtPage({ ...back, hash: '#progress' }, { x: 0, y: 40 });
    pageRendered();
    expect(window.scrollY).toBe(40);
  });

  it('without a known position: the #fragment’s target (focus stays on the heading), else the top', () => {
    const { heading } = renderLayout();
    placed('progress', 900);
    arriveAtPage({ ...back, hash: '#progress' });
    pageRendered();
    expect(window.scrollY).toBe(900 - 64);
    expect(document.activeElement).toBe(heading);
    window.scrollTo(0, 700);
    arriveAtPage(back);
    pageRendered();
    expect(window.scrollY).toBe(0);
  });
});

describe('arriveAtPage: the document’s first page', () => {
  const first: Arrival = { title: 'Campaigns', kind: 'first', hash: '' };

  it('keeps the browser’s focus and scroll, and announces nothing', () => {
    const { link, announcer } = renderLayout();
    visitorScrolledAndFocused(link);
    arriveAtPage(first);
    pageRendered();
    expect(window.scrollY).toBe(800);
    expect(document.activeElement).toBe(link);
    expect(announcer?.textContent).toBe('');
  });

  it('after a reload, returns to where the visitor was', () => {
    const { announcer } = renderLayout();
    arriveAtPage(first, { x: 0, y: 640 });
    pageRendered();
    expect(window.scrollY).toBe(640);
    expect(announcer?.textContent).toBe('');
  });

  it('with a #fragment: scrolls its target into view once drawn and focuses it (the browser leaves focus on body)', () => {
    const { announcer } = renderLayout();
    const target = placed('raised', 700);
    arriveAtPage({ ...first, hash: '#raised' });
    pageRendered();
    expect(window.scrollY).toBe(700 - 64);
    expect(document.activeElement).toBe(target);
    expect(announcer?.textContent).toBe('');
  });

  it('with a #fragment that names nothing: leaves everything as the browser has it', () => {
    const { link } = renderLayout();
    visitorScrolledAndFocused(link);
    arriveAtPage({ ...first, hash: '#gone' });
    pageRendered();
    expect(window.scrollY).toBe(800);
    expect(document.activeElement).toBe(link);
  });
});

describe('arriveAtFragment (the page on screen stays)', () => {
  it('a link: its target below the header, focused, nothing announced', () => {
    const { announcer } = renderLayout();
    const target = placed('progress', 1000);
    arriveAtFragment({ kind: 'new', hash: '#progress' });
    expect(window.scrollY).toBe(0);
    pageRendered();
    expect(window.scrollY).toBe(1000 - 64);
    expect(document.activeElement).toBe(target);
    expect(announcer?.textContent).toBe('');
  });

  it('a step back or forward: where the visitor was, focus where it is', () => {
    const { link } = renderLayout();
    visitorScrolledAndFocused(link);
    arriveAtFragment({ kind: 'return', hash: '#progress' }, { x: 0, y: 250 });
    pageRendered();
    expect(window.scrollY).toBe(250);
    expect(document.activeElement).toBe(link);
  });

  it('a step to an entry with no known position: its target, focus where it is', () => {
    const { link } = renderLayout();
    visitorScrolledAndFocused(link);
    placed('progress', 300);
    arriveAtFragment({ kind: 'return', hash: '#progress' });
    pageRendered();
    expect(window.scrollY).toBe(800 + 300 - 64);
    expect(document.activeElement).toBe(link);
  });

  it('a fragment that names nothing: the window stays', () => {
    const { link } = renderLayout();
    visitorScrolledAndFocused(link);
    arriveAtFragment({ kind: 'new', hash: '#nothing' });
    pageRendered();
    expect(window.scrollY).toBe(800);
    expect(document.activeElement).toBe(link);
  });
});

describe('pageRendered', () => {
  it('does nothing when no arrival was asked for (a re-render)', () => {
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
    const arrival = await import('../../src/platform/arrival');
    document.body.innerHTML = `<p ${arrival.ANNOUNCER_ATTRIBUTE} aria-live="polite"></p><main><h1 tabindex="-1">Profile</h1></main>`;
    arrival.arriveAtPage(newPage('Profile'));
    arrival.pageRendered();
    expect(document.querySelector('[aria-live]')?.textContent).toBe('Profile');
  });
});

describe('the heading arrival focuses', () => {
  it('is made focusable by script, out of the tab order: a page need not mark it', () => {
    document.body.innerHTML = '<main><h1>Campaigns</h1><a href="/campaign/1">First</a></main>';
    const heading = document.querySelector<HTMLElement>('main h1') as HTMLElement;
    arriveAtPage(newPage('Campaigns'));
    pageRendered();
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(document.activeElement).toBe(heading);
  });

  it('keeps a tabindex the page gave it', () => {
    document.body.innerHTML = '<main><h1 tabindex="0">Campaigns</h1></main>';
    arriveAtPage(newPage('Campaigns'));
    pageRendered();
    expect(document.querySelector('main h1')?.getAttribute('tabindex')).toBe('0');
  });
});
