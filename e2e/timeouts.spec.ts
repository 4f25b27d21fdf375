/**
 * Requests that never answer: the API timeout (10 s, `config.apiTimeoutMs`) ends the wait with words for the
 * user and a way to retry, instead of an empty page forever. `page.clock` moves time; the routes never fulfil.
 */
import type { Page } from '@playwright/test';
import {
  CAMPAIGNS,
  DEMO,
  expect,
  expectPage,
  header,
  LANDING_TITLE,
  mainHeading,
  openPage,
  signInViaApi,
  test,
} from './fixtures';

const TIMEOUT_MS = 10_000;
const TIMEOUT_TEXT = 'The server took too long to answer. Please try again.';
const SESSION_START = Date.UTC(2026, 0, 1);

/** A route that takes the request and never answers it, as a stalled server does. */
async function stall(page: Page, url: string | RegExp): Promise<() => number> {
  let seen = 0;
  await page.route(url, () => {
    seen += 1;
  });
  return () => seen;
}

/**
 * Counts the app's own `fetch` calls to URLs containing `part`. The HTML's `<link rel="preload">` of
 * `/api/session` reaches the server before any script runs, so a stalled route alone cannot tell when the app
 * started its request, and with it its timeout timer.
 */
async function countAppFetches(page: Page, part: string): Promise<() => Promise<number>> {
  await page.addInitScript((needle) => {
    const w = window as unknown as { __appFetches: number };
    w.__appFetches = 0;
    const original = window.fetch;
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes(needle)) w.__appFetches += 1;
      return original.call(window, input, init);
    };
  }, part);
  return () => page.evaluate(() => (window as unknown as { __appFetches: number }).__appFetches);
}

/** Waits until the page has sent `count` stalled requests, then moves the clock past the timeout. */
async function outlast(page: Page, requests: () => number, count = 1): Promise<void> {
  await expect.poll(requests).toBeGreaterThanOrEqual(count);
  await page.clock.runFor(TIMEOUT_MS + 100);
}

test('a deep link whose page data never arrives ends on the 500 view with the timeout, and Reload retries', async ({
  page,
}) => {
  await page.clock.install();
  // Served as a plain SPA host would (the shell, not the prerendered HTML), so the page waits for the API.
  await page.route(`**/campaign/${CAMPAIGNS.maple.id}`, (route) =>
    route.request().resourceType() === 'document'
      ? route.fulfill({ path: `${process.env.E2E_OUT_DIR ?? 'dist'}/200.html` })
      : route.continue(),
  );
  const requests = await stall(page, `**/api/campaigns/${CAMPAIGNS.maple.id}`);
  await page.goto(`/campaign/${CAMPAIGNS.maple.id}`);
  await outlast(page, requests);
  await expectPage(page, { url: `/campaign/${CAMPAIGNS.maple.id}`, heading: '504' });
  await expect(page.getByRole('main').getByText(TIMEOUT_TEXT)).toBeVisible();

  await page.unroute(`**/api/campaigns/${CAMPAIGNS.maple.id}`);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expectPage(page, { url: `/campaign/${CAMPAIGNS.maple.id}`, heading: CAMPAIGNS.maple.title });
});

test('a link whose page data never arrives: the navigation settles on the 500 view, Back still works', async ({
  page,
}) => {
  await page.clock.install();
  // The campaign is prerendered: without its payload the navigation asks the API, as for any other page. Both
  // routes are in place before the page loads, so the payloads it warms for the links on screen miss too.
  await page.route(`**/campaign/${CAMPAIGNS.library.id}/_payload.json*`, (route) =>
    route.fulfill({ status: 404 }),
  );
  const requests = await stall(page, `**/api/campaigns/${CAMPAIGNS.library.id}`);
  // Once the manifest has said which pages are prerendered, the hover's prefetch and the click's navigation take
  // the same way (payload, then the API) and share one request; before it, they could take two.
  const manifest = page.waitForResponse(/\/_app\/builds\/meta\/[\w-]+\.json$/);
  await openPage(page, '/', LANDING_TITLE);
  await manifest;
  await page.getByRole('link', { name: CAMPAIGNS.library.title }).click();
  await outlast(page, requests);
  await expectPage(page, { url: `/campaign/${CAMPAIGNS.library.id}`, heading: '504' });
  await expect(page.getByRole('main').getByText(TIMEOUT_TEXT)).toBeVisible();
  await expect(mainHeading(page)).toBeFocused();
  await page.goBack();
  await expectPage(page, { url: '/', heading: LANDING_TITLE });
});

test('a session check that never answers: after the timeout the landing page shows, with a toast saying why', async ({
  page,
}) => {
  // The audit's case: / showed the header and an empty main area forever. Page time stands still but for the
  // timeout the test runs through: on a busy machine the toast's 5 s would otherwise run out before it is read.
  await page.clock.install({ time: SESSION_START });
  await page.clock.pauseAt(SESSION_START + 1_000);
  const requests = await stall(page, '**/api/session');
  const appChecks = await countAppFetches(page, '/api/session');
  await page.goto('/');
  // The app's own check (whose timer the clock must outlast), not only the preload the HTML started.
  await expect.poll(appChecks).toBe(1);
  await outlast(page, requests);
  await expectPage(page, { url: '/', heading: LANDING_TITLE });
  const toast = page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('listitem');
  await expect(toast.filter({ hasText: 'Could not check your session' })).toContainText(TIMEOUT_TEXT);
});

test('/home with /api/me/campaigns never answering ends on the 500 view, not an empty page', async ({
  page,
}) => {
  await signInViaApi(page, DEMO);
  await page.clock.install();
  const requests = await stall(page, '**/api/me/campaigns');
  await page.goto('/home');
  await outlast(page, requests);
  await expectPage(page, { url: '/home', heading: '504' });
  await expect(page.getByRole('main').getByText(TIMEOUT_TEXT)).toBeVisible();
  await expect(header(page)).toHaveCount(0);
});

test('a profile save that never answers keeps the page and what was typed, and says why in a toast', async ({
  page,
}) => {
  await signInViaApi(page, DEMO);
  await page.clock.install();
  await openPage(page, '/profile', 'Your profile');
  const requests = await stall(page, '**/api/profile');
  const name = page.getByLabel('Display name');
  await name.fill('Stalled Name');
  await page.getByRole('button', { name: 'Save' }).click();
  await outlast(page, requests);
  const toast = page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('listitem');
  await expect(toast.filter({ hasText: 'Profile not saved' })).toContainText(TIMEOUT_TEXT);
  await expectPage(page, { url: '/profile', heading: 'Your profile' });
  await expect(name).toHaveValue('Stalled Name');
});
