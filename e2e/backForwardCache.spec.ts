/**
 * The back/forward cache: leaving the site and coming back with Back restores the page as it was
 * (`pageshow` with `persisted`), without loading it again; the app then checks again what may have changed while
 * it was away, the session and the build, without a reload. Playwright starts Chromium with the cache off
 * (`--disable-back-forward-cache`); this file starts it as visitors' browsers run, with the cache on. A restored
 * page sends none of the events Playwright's own page tracking waits for (it does not support the cache), so once
 * a page has been restored these tests read it and step through history over the DevTools protocol, and press with
 * the mouse, both of which talk to the tab itself.
 */
import type { CDPSession, Page } from '@playwright/test';
import config from '../playwright.config';
import {
  CAMPAIGNS,
  DEMO,
  expect,
  headerSignOut,
  LANDING_TITLE,
  openPage,
  sameOrigin,
  signInViaApi,
  test,
} from './fixtures';

test.use({
  launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--disable-back-forward-cache'] },
  viewport: { width: 390, height: 600 },
});

/** The tab, over the DevTools protocol, with why a step could not use the cache, if it could not. */
async function tabOf(page: Page) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const notCached: unknown[] = [];
  cdp.on('Page.backForwardCacheNotUsed', (event) => notCached.push(event.notRestoredExplanations));
  await cdp.send('Page.enable');
  return {
    notCached,
    /**
     * Evaluates `expression`, which must change nothing, in the document the tab shows now (a restored one
     * included). A step through history that lands while the question is on its way loses the answer ("Inspected
     * target navigated or closed"): the question is asked again of the document that followed.
     */
    async read<T>(expression: string): Promise<T> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await evaluate<T>(expression);
        } catch (error) {
          if (attempt === 5 || !/navigated or closed|context was destroyed/.test(String(error))) throw error;
          await new Promise((settled) => setTimeout(settled, 100));
        }
      }
    },
    /** Steps back in a task of its own, so that the evaluation answers before the tab navigates. */
    async back(): Promise<void> {
      await evaluate('void setTimeout(() => history.back())');
    },
  };

  async function evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
      expression,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text}`);
    return result.value as T;
  }
}

/** Notes, in the page, whether it was last shown from the back/forward cache (a restored page keeps its globals). */
async function notePageShows(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.addEventListener('pageshow', (event) => {
      (window as unknown as { __restored: boolean }).__restored = event.persisted;
    });
  });
}

/** The same server under another origin: another site, as far as the browser is concerned. */
function elsewhere(baseURL: string | undefined): string {
  return `${String(baseURL).replace('127.0.0.1', 'localhost')}/campaign/components/info`;
}

const HEADING = "document.querySelector('main h1')?.textContent ?? null";

test('leaving for another site and coming Back restores the page from the cache, and it still works', async ({
  page,
  baseURL,
}) => {
  await notePageShows(page);
  const tab = await tabOf(page);
  await openPage(page, '/', LANDING_TITLE);
  await page.mouse.move(195, 400);
  await page.mouse.wheel(0, 700);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const scrolled = await page.evaluate(() => window.scrollY);
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url());
  });

  await page.goto(elsewhere(baseURL));
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Component gallery');
  await tab.back();
  await expect.poll(() => tab.read<string>('location.pathname')).toBe('/');
  expect(await tab.read<boolean>('window.__restored'), JSON.stringify(tab.notCached)).toBe(true);
  // Restored as it was left: not loaded again, at the same place.
  expect(documents).toEqual([elsewhere(baseURL)]);
  expect(await tab.read<string>(HEADING)).toBe(LANDING_TITLE);
  expect(await tab.read<number>('window.scrollY')).toBe(scrolled);

  // And it works: a link is followed inside the document, as before.
  const link = await tab.read<{ x: number; y: number }>(`(() => {
    const link = document.querySelector('a[href="/campaign/${CAMPAIGNS.maple.id}"]');
    link.scrollIntoView({ block: 'center' });
    const box = link.getBoundingClientRect();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  })()`);
  await page.mouse.click(link.x, link.y);
  await expect.poll(() => tab.read<string | null>(HEADING)).toBe(CAMPAIGNS.maple.title);
  expect(await tab.read<string>('location.pathname')).toBe(`/campaign/${CAMPAIGNS.maple.id}`);
  expect(documents).toEqual([elsewhere(baseURL)]);
});

test('a page restored from the cache checks the session and the build again: signed out elsewhere, it says so', async ({
  page,
  baseURL,
}) => {
  await notePageShows(page);
  const tab = await tabOf(page);
  await signInViaApi(page, DEMO);
  await openPage(page, '/', LANDING_TITLE);
  await expect(headerSignOut(page)).toBeVisible();

  await page.goto(elsewhere(baseURL));
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Component gallery');
  // Signed out in another tab while this page waits in the cache.
  expect((await page.request.delete('/api/session', { headers: sameOrigin() })).status()).toBe(204);
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === '/api/session' || pathname.endsWith('/latest.json')) asked.push(pathname);
  });
  await tab.back();
  await expect.poll(() => tab.read<string>('location.pathname')).toBe('/');
  expect(await tab.read<boolean>('window.__restored'), JSON.stringify(tab.notCached)).toBe(true);

  await expect.poll(() => asked.sort()).toEqual(['/_app/builds/latest.json', '/api/session']);
  const signedInControls = `[...document.querySelectorAll('header a, header button')].map((e) => e.textContent.trim()).filter((t) => ['Home', 'Profile', 'Sign in', 'Sign out'].includes(t))`;
  await expect.poll(() => tab.read<string[]>(signedInControls)).toEqual(['Sign in']);
  await expect
    .poll(() =>
      tab.read<string>("document.querySelector('[aria-label=\"Notifications (F8)\"]')?.textContent ?? ''"),
    )
    .toContain('Your session has ended');
});
