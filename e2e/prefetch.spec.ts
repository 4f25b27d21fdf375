/**
 * Prefetch. Links on screen have their page's code fetched when the browser is idle and,
 * for a prerendered page, its `_payload.json` once the build manifest says it has one: never the API, so a
 * visit that does nothing costs the database nothing but the session check (and the landing page's or a
 * campaign page's own check of its data). Pointing at, focusing or touching a link fetches its page's data at once: the payload of a
 * prerendered page, the API for any other. A visitor on Save-Data or 2G gets no speculative requests. (With
 * Playwright's clock paused, idle callbacks never run, which isolates the intent path.)
 */
import type { Page, Request } from '@playwright/test';
import {
  CAMPAIGNS,
  expect,
  expectHydrated,
  expectPage,
  header,
  LANDING_TITLE,
  mainHeading,
  openPage,
  test,
} from './fixtures';

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
 * its loader (the API), for the navigation and for the intent prefetch alike: that is what these tests watch.
 * With the manifest, a prerendered page's data is its `_payload.json` (the tests further down).
 */
async function withoutManifest(page: Page): Promise<void> {
  await page.route('**/_app/builds/meta/*.json', (route) => route.abort());
}

function featuredLink(page: Page, title: string) {
  return page.getByRole('region', { name: 'Live campaigns' }).getByRole('link', { name: title, exact: true });
}

const MANIFEST = '**/_app/builds/meta/*.json';
/** The landing page checks its campaigns once, in the background, after it shows (revalidation). */
const LANDING_CHECK = '/api/campaigns';
/** The campaign page's chunk, which only a prefetch or a navigation asks for on `/`. */
const CAMPAIGN_CHUNK = /\/assets\/campaign-[\w-]+\.js$/;
/** The landing page's chunk (src/pages/index.tsx; `index-*.js` is the entry's name, so Rolldown calls it `pages`). */
const LANDING_CHUNK = /\/assets\/pages-[\w-]+\.js$/;

/** Requests for page data: the API, minus the session check every page makes, and icons. */
function isDataRequest(request: Request): boolean {
  const { pathname } = new URL(request.url());
  return (
    pathname.startsWith('/api/') && pathname !== '/api/session' && !pathname.startsWith('/api/_nuxt_icon')
  );
}

function dataRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (!isDataRequest(request)) return;
    const url = new URL(request.url());
    seen.push(`${url.pathname}${url.search}`);
  });
  return seen;
}

function payloadRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('/_payload.json')) seen.push(pathname);
  });
  return seen;
}

/**
 * Prerendered pages, each visited and left alone: `linkedChunk` is the code of a page a link on screen opens
 * (its request says the idle prefetch has run), `payloads` some of the payloads those links have.
 */
const QUIET_VISITS = [
  {
    path: '/',
    heading: LANDING_TITLE,
    linkedChunk: CAMPAIGN_CHUNK,
    payloads: [`/campaign/${CAMPAIGNS.maple.id}/_payload.json`, '/login/_payload.json'],
    api: [LANDING_CHECK],
  },
  { path: '/login', heading: 'Sign in', linkedChunk: LANDING_CHUNK, payloads: ['/_payload.json'], api: [] },
  {
    path: `/campaign/${CAMPAIGNS.maple.id}`,
    heading: CAMPAIGNS.maple.title,
    linkedChunk: LANDING_CHUNK,
    payloads: ['/_payload.json', '/login/_payload.json'],
    // The page checks its own figures once, in the background (revalidation).
    api: [`/api/campaigns/${CAMPAIGNS.maple.id}`],
  },
  {
    path: '/campaign/components/info',
    heading: 'Component gallery',
    linkedChunk: LANDING_CHUNK,
    payloads: ['/_payload.json', `/campaign/${CAMPAIGNS.maple.id}/_payload.json`],
    api: [],
  },
] as const;

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

  for (const visit of QUIET_VISITS) {
    test(`a visit to ${visit.path} that does nothing asks the API for nothing but the session${visit.api.length ? ' and its own figures' : ''}`, async ({
      page,
    }) => {
      const api = dataRequests(page);
      const payloads = payloadRequests(page);
      // The manifest is held until the links on screen have been prefetched (their page's code is asked
      // for): a prefetch decided before the app knows what was prerendered must wait for it, not ask the API.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(MANIFEST, async (route) => {
        await held;
        await route.continue();
      });
      const prefetched = page.waitForRequest(visit.linkedChunk);
      await page.goto(visit.path);
      await expect(mainHeading(page)).toHaveText(visit.heading);
      await expectHydrated(page);
      await prefetched;
      release();
      // The payloads of the prerendered pages the links on screen open are what is fetched instead.
      await expect.poll(() => payloads).toEqual(expect.arrayContaining([...visit.payloads]));
      await page.waitForLoadState('networkidle');
      expect(api).toEqual(visit.api);
    });
  }

  test('a link to a page without a payload: its code when on screen, its data from the API only on intent', async ({
    page,
  }) => {
    // A window tall enough to show the second featured card.
    await page.setViewportSize({ width: 1280, height: 1000 });
    // A manifest that names the campaigns with a payload one by one, leaving this one out (the server renders
    // every campaign, so the real manifest lists the `/campaign/**` prefix).
    await page.route(MANIFEST, async (route) => {
      const response = await route.fetch();
      const manifest = (await response.json()) as { prerendered: string[] };
      const prerendered = [
        ...manifest.prerendered.filter((path) => path !== '/campaign/**'),
        `/campaign/${CAMPAIGNS.maple.id}`,
        `/campaign/${CAMPAIGNS.youthClub.id}`,
      ];
      await route.fulfill({ response, json: { ...manifest, prerendered } });
    });
    const api = dataRequests(page);
    const payloads = payloadRequests(page);
    const prefetched = page.waitForRequest(CAMPAIGN_CHUNK);
    await openPage(page, '/', LANDING_TITLE);
    await prefetched;
    await expect.poll(() => payloads).toContain(`/campaign/${CAMPAIGNS.maple.id}/_payload.json`);
    await page.waitForLoadState('networkidle');
    const link = featuredLink(page, CAMPAIGNS.library.title);
    await expect(link).toBeInViewport();
    expect(api).toEqual([LANDING_CHECK]);
    expect(payloads).not.toContain(`/campaign/${CAMPAIGNS.library.id}/_payload.json`);
    await link.hover();
    await expect.poll(() => api).toEqual([LANDING_CHECK, `/api/campaigns/${CAMPAIGNS.library.id}`]);
    await link.click();
    await expectPage(page, { url: /\/campaign\/2$/, heading: CAMPAIGNS.library.title });
    expect(api).toEqual([LANDING_CHECK, `/api/campaigns/${CAMPAIGNS.library.id}`]);
  });

  test('after a client navigation, the new page’s links on screen have their payloads fetched, not their data', async ({
    page,
  }) => {
    const api = dataRequests(page);
    const payloads = payloadRequests(page);
    // On /login no link opens a campaign, so the manifest's own preload warms no campaign payload.
    await openPage(page, '/login', 'Sign in');
    await expect.poll(() => payloads).toContain('/_payload.json');
    await header(page).getByRole('link', { name: 'campaign-web' }).click();
    await expectPage(page, { url: '/', heading: LANDING_TITLE });
    await expect.poll(() => payloads).toContain(`/campaign/${CAMPAIGNS.maple.id}/_payload.json`);
    await page.waitForLoadState('networkidle');
    // The landing page came from its payload, so it checks its featured campaigns once, as on a first load.
    expect(api).toEqual([LANDING_CHECK]);
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

/**
 * Pointing at a link before the manifest has arrived: the app asks for the manifest at once (it is on its way
 * anyway, and the click's navigation waits for it to apply the route rules), then takes the payload of a
 * prerendered page. Asking the API instead would cost a database read the navigation never uses.
 */
test('pointing at a prerendered page before the manifest has arrived fetches the manifest, then its payload, never the API', async ({
  page,
}) => {
  const api = dataRequests(page);
  const payloads = payloadRequests(page);
  const manifests: string[] = [];
  page.on('request', (request) => {
    if (/\/_app\/builds\/meta\/[\w-]+\.json$/.test(new URL(request.url()).pathname))
      manifests.push(request.url());
  });
  // Page time stands still: the manifest's own preload, a second after start, never comes.
  await page.clock.install({ time: START });
  await page.clock.pauseAt(START + 500);
  await openPage(page, '/', LANDING_TITLE);
  expect(manifests).toEqual([]);
  const link = featuredLink(page, CAMPAIGNS.maple.title);
  await link.hover();
  await expect.poll(() => manifests).toHaveLength(1);
  const payload = `/campaign/${CAMPAIGNS.maple.id}/_payload.json`;
  await expect.poll(() => payloads).toContain(payload);
  expect(api).toEqual([LANDING_CHECK]);
  await link.click();
  await expectPage(page, { url: /\/campaign\/1$/, heading: CAMPAIGNS.maple.title });
  expect(payloads.filter((path) => path === payload)).toHaveLength(1);
  // Besides the landing page's, the only API request is the campaign page's own check of its figures.
  await expect.poll(() => api).toEqual([LANDING_CHECK, `/api/campaigns/${CAMPAIGNS.maple.id}`]);
});
