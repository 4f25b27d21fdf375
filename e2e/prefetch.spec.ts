/**
 * Prefetch (issue 13): the data of public pages linked on screen is fetched when the browser is idle, and
 * pointing at or focusing a link fetches its page's data at once, so the click commits the page without
 * another request. A visitor on Save-Data or 2G gets no speculative requests. (With Playwright's clock
 * paused, idle callbacks never run, which isolates the intent path.)
 */
import type { Page } from '@playwright/test';
import { CAMPAIGNS, expect, expectPage, LANDING_TITLE, openPage, test } from './fixtures';

const START = new Date('2030-01-01T09:00:00Z').getTime();

function campaignRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/campaigns/')) seen.push(path);
  });
  return seen;
}

/**
 * Without the build manifest the app does not know which pages were prerendered, so a page's data comes from
 * its loader (the API): that is the prefetch these tests watch. With the manifest, a prerendered page's data
 * is its `_payload.json` (the last test).
 */
async function withoutManifest(page: Page): Promise<void> {
  await page.route('**/_app/builds/meta/*.json', (route) => route.abort());
}

function featuredLink(page: Page, title: string) {
  return page
    .getByRole('region', { name: 'Featured campaigns' })
    .getByRole('link', { name: title, exact: true });
}

/**
 * A short window keeps the featured cards more than 200 px below the fold (no viewport prefetch), and a paused
 * clock keeps idle callbacks from running: only intent can prefetch.
 */
async function openWithoutIdleTime(page: Page): Promise<void> {
  await withoutManifest(page);
  await page.setViewportSize({ width: 1280, height: 320 });
  await page.clock.install({ time: START });
  await openPage(page, '/', LANDING_TITLE);
  await page.clock.pauseAt(START + 60_000);
}

test.describe('prefetch', () => {
  test.use({ viewportPrefetch: true });

  test('pointing at a campaign link loads its data, and the click commits without asking again', async ({
    page,
  }) => {
    const requests = campaignRequests(page);
    await openWithoutIdleTime(page);
    expect(requests).toEqual([]);
    const link = featuredLink(page, CAMPAIGNS.maple.title);
    await link.hover();
    await expect.poll(() => requests).toEqual([`/api/campaigns/${CAMPAIGNS.maple.id}`]);
    await link.click();
    await expectPage(page, { url: /\/campaign\/1$/, heading: CAMPAIGNS.maple.title });
    expect(requests).toEqual([`/api/campaigns/${CAMPAIGNS.maple.id}`]);
  });

  test('keyboard focus prefetches too', async ({ page }) => {
    const requests = campaignRequests(page);
    await openWithoutIdleTime(page);
    await featuredLink(page, CAMPAIGNS.library.title).focus();
    await expect.poll(() => requests).toEqual([`/api/campaigns/${CAMPAIGNS.library.id}`]);
  });

  test('links on screen have their data fetched when idle; a later click asks nothing more', async ({
    page,
  }) => {
    const requests = campaignRequests(page);
    await withoutManifest(page);
    await openPage(page, '/', LANDING_TITLE);
    const maple = `/api/campaigns/${CAMPAIGNS.maple.id}`;
    await expect.poll(() => requests).toContain(maple);
    await featuredLink(page, CAMPAIGNS.maple.title).click();
    await expectPage(page, { url: /\/campaign\/1$/, heading: CAMPAIGNS.maple.title });
    expect(requests.filter((path) => path === maple)).toHaveLength(1);
  });

  test('no speculative requests with Save-Data', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' } });
    });
    const requests = campaignRequests(page);
    await openPage(page, '/', LANDING_TITLE);
    const link = featuredLink(page, CAMPAIGNS.maple.title);
    await link.hover();
    await page.waitForTimeout(500);
    expect(requests).toEqual([]);
    // Following the link still works; it just loads on the click.
    await link.click();
    await expectPage(page, { url: /\/campaign\/1$/, heading: CAMPAIGNS.maple.title });
    expect(requests).toEqual([`/api/campaigns/${CAMPAIGNS.maple.id}`]);
  });
});

// Viewport prefetch stays off here (the fixture's default): only the link's intent and the app itself fetch.
test('once the manifest is known, pointing at a prerendered page asks the API nothing; the click reads no payload again', async ({
  page,
}) => {
  const payloads: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('/_payload.json')) payloads.push(path);
  });
  const requests = campaignRequests(page);
  await page.setViewportSize({ width: 1280, height: 320 });
  await page.clock.install({ time: START });
  await openPage(page, '/', LANDING_TITLE);
  // Past the manifest preload: once the manifest has arrived the app knows what the build prerendered
  // (and warms those payloads itself).
  await page.clock.runFor(5_000);
  const payload = `/campaign/${CAMPAIGNS.maple.id}/_payload.json`;
  await expect.poll(() => payloads).toContain(payload);
  const before = payloads.filter((path) => path === payload).length;
  const link = featuredLink(page, CAMPAIGNS.maple.title);
  await link.hover();
  await link.click();
  await expectPage(page, { url: /\/campaign\/1$/, heading: CAMPAIGNS.maple.title });
  expect(payloads.filter((path) => path === payload)).toHaveLength(before);
  // No speculative API request: the only one is the page's own background revalidation after it showed.
  expect(requests.length).toBeLessThanOrEqual(1);
});
