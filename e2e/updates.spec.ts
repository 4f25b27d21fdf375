import type { Page, Route } from '@playwright/test';
import { CAMPAIGNS, expect, expectStays, LANDING_TITLE, openPage, test } from './fixtures';

const LATEST = '**/_app/builds/latest.json*';
/** The campaign page's chunk, also as a retry imports it (`?retry=1`: see src/pages/registry.ts). */
const CAMPAIGN_CHUNK = /\/assets\/campaign-[^/?]+\.js(\?.*)?$/;
const HOUR = 60 * 60 * 1000;
const START = new Date('2026-01-01T00:00:00Z').getTime();
/**
 * How long a "nothing happens" check watches. The same window bounds the check that must happen once the tab
 * is back, so a poll that wrongly went out would have shown within it.
 */
const QUIET_MS = 2_000;

/** Answers latest.json as a deploy of another build would. */
function newerBuild(route: Route) {
  return route.fulfill({
    json: { id: 'a-newer-build', timestamp: Date.now() },
    headers: { 'cache-control': 'no-store' },
  });
}

/** Counts document loads: a full page load re-runs this init script, a client navigation does not. */
async function countDocumentLoads(page: Page) {
  await page.addInitScript(() => {
    const key = 'e2e:document-loads';
    localStorage.setItem(key, String(Number(localStorage.getItem(key) ?? '0') + 1));
  });
  return () => page.evaluate(() => Number(localStorage.getItem('e2e:document-loads')));
}

/**
 * Opens `/` and waits until the app runs (React owns the prerendered page): the update timer starts with the app,
 * so moving the clock while only the server's HTML is on screen would start it an hour late (flaky in CI).
 */
async function openLanding(page: Page) {
  await openPage(page, '/', LANDING_TITLE);
}

test.describe('update detection', () => {
  test('a new build is noticed after an hour, announced, and the next link click loads a document', async ({
    page,
  }) => {
    // The clock stands still while the page loads, so the hour counts from the app's start however long the
    // page takes to hydrate (with a running clock, a start more than 5 s before hydration, as on a loaded CI
    // machine, put the check inside the "too early" window).
    await page.clock.install({ time: START });
    await page.clock.pauseAt(START + 1_000);
    const loads = await countDocumentLoads(page);
    let checks = 0;
    await page.route(LATEST, (route) => {
      checks += 1;
      return newerBuild(route);
    });
    await openLanding(page);
    await page.clock.fastForward(HOUR - 5_000);
    await expectStays(() => checks, 0, QUIET_MS);
    await page.clock.fastForward(10_000);
    // First that the hourly check went out at all, then what it led to: a failure says which step did not happen.
    await expect.poll(() => checks, { message: 'the hourly update check went out' }).toBe(1);
    const notice = page
      .getByRole('region', { name: 'Notifications (F8)' })
      .getByRole('listitem')
      .filter({ hasText: 'A new version is available' });
    await expect(notice).toBeVisible();
    await expect(notice.getByRole('button', { name: 'Reload' })).toBeVisible();
    expect(checks).toBe(1);
    await page.clock.fastForward(3 * HOUR);
    await expectStays(() => checks, 1, QUIET_MS);
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expect(page).toHaveURL(`/campaign/${CAMPAIGNS.maple.id}`);
    await expect(page.getByRole('heading', { level: 1, name: CAMPAIGNS.maple.title })).toBeVisible();
    expect(await loads()).toBe(2);
  });

  test('a browser without AbortSignal.any or AbortSignal.timeout still notices a new build (regression)', async ({
    page,
  }) => {
    await page.clock.install();
    // Browsers the build targets (Safari < 17.4) lack them; every check used to throw and fail silently.
    // Registered after the clock's init script, which brings its own AbortSignal.timeout.
    await page.addInitScript(() => {
      for (const name of ['any', 'timeout']) {
        Object.defineProperty(AbortSignal, name, { value: undefined, configurable: true, writable: true });
      }
    });
    let checks = 0;
    await page.route(LATEST, (route) => {
      checks += 1;
      return newerBuild(route);
    });
    await openLanding(page);
    expect(await page.evaluate(() => [typeof AbortSignal.any, typeof AbortSignal.timeout])).toEqual([
      'undefined',
      'undefined',
    ]);
    await page.clock.fastForward(HOUR + 5_000);
    await expect(
      page
        .getByRole('region', { name: 'Notifications (F8)' })
        .getByRole('listitem')
        .filter({ hasText: 'A new version is available' }),
    ).toBeVisible();
    expect(checks).toBe(1);
  });

  test('a 404 or an HTML page instead of latest.json is no update', async ({ page }) => {
    await page.clock.install();
    const loads = await countDocumentLoads(page);
    const answers = [
      (route: Route) => route.fulfill({ status: 404, body: 'Not found' }),
      (route: Route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<html>Sign in to the Wi-Fi</html>' }),
    ];
    let checks = 0;
    await page.route(LATEST, (route) => (answers[checks++] ?? answers[1])?.(route));
    await openLanding(page);
    await page.clock.fastForward(HOUR + 1_000);
    await expect.poll(() => checks).toBe(1);
    // The next check is scheduled only once this answer has been handled, a moment after the request went out,
    // so time moves in hourly steps until it comes (the backoff's exact timing is a machine test).
    for (let hour = 0; hour < 8 && checks < 2; hour += 1) {
      await page.clock.fastForward(HOUR);
      await expect
        .poll(() => checks, { timeout: 500 })
        .toBe(2)
        .catch(() => {});
    }
    expect(checks).toBe(2);
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expect(page.getByRole('heading', { level: 1, name: CAMPAIGNS.maple.title })).toBeVisible();
    expect(await loads()).toBe(1);
    await expect(page.getByText('A new version is available')).toHaveCount(0);
  });

  test('an offline or hidden tab does not poll, and checks once when it is back', async ({
    page,
    context,
  }) => {
    await page.clock.install();
    const current = (await (await page.request.get('/_app/builds/latest.json')).json()) as { id: string };
    await page.route(LATEST, (route) => route.fulfill({ json: { id: current.id, timestamp: 1 } }));
    // Every request for latest.json counts, also one that fails because the context is offline.
    let checks = 0;
    page.on('request', (request) => {
      if (request.url().includes('/_app/builds/latest.json')) checks += 1;
    });
    await openLanding(page);
    await context.setOffline(true);
    await page.clock.fastForward(HOUR + 1_000);
    // Nothing may happen: watched for as long as the check below takes to show once the tab is online again.
    await expectStays(() => checks, 0, QUIET_MS);
    await context.setOffline(false);
    await expect.poll(() => checks, { timeout: QUIET_MS }).toBe(1);

    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', {
          configurable: true,
          get: () => (value ? 'hidden' : 'visible'),
        });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    // Hourly steps, each watched for the whole window, so a timer scheduled late (after the last answer was
    // handled) still falls due while the tab is hidden; no check may go out.
    for (let hour = 0; hour < 3; hour += 1) {
      await page.clock.fastForward(HOUR);
      await expectStays(() => checks, 1, QUIET_MS);
    }
    await setHidden(false);
    await expect.poll(() => checks, { timeout: QUIET_MS }).toBe(2);
  });
});

test.describe('chunk-load recovery', () => {
  test('a failed page chunk of an outdated build reloads once, then shows the error page without looping', async ({
    page,
  }) => {
    const loads = await countDocumentLoads(page);
    await page.route(LATEST, newerBuild);
    await openLanding(page);
    let chunkRequests = 0;
    await page.route(CAMPAIGN_CHUNK, (route) => {
      chunkRequests += 1;
      return route.abort();
    });
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expect(page.getByRole('heading', { level: 1, name: '500' })).toBeVisible();
    await expect(
      page.getByText('A part of the app could not be loaded. Check your connection, then reload the page.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
    await expect(page).toHaveURL(`/campaign/${CAMPAIGNS.maple.id}`);
    expect(await loads()).toBe(2);
    expect(chunkRequests).toBeGreaterThanOrEqual(2);
  });

  /**
   * The same build: the page chunk is asked for once more, at a URL of its own. Chromium 150 keeps a failed
   * dynamic import in its module map and rejects a second import of the same URL without a request (later
   * builds fetch again), so a retry at the same URL would never reach the network there. The distinct URLs
   * asserted below are what makes the retry real in every browser, whatever this one caches.
   */
  async function failCampaignChunk(page: Page, failures: number) {
    const current = (await (await page.request.get('/_app/builds/latest.json')).json()) as { id: string };
    await page.route(LATEST, (route) => route.fulfill({ json: { id: current.id, timestamp: 1 } }));
    await openLanding(page);
    const chunkUrls: string[] = [];
    await page.route(CAMPAIGN_CHUNK, (route) => {
      chunkUrls.push(route.request().url());
      return chunkUrls.length <= failures ? route.abort() : route.fallback();
    });
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    return chunkUrls;
  }

  test('one dropped request for a page chunk: the retry fetches it again and the page arrives', async ({
    page,
  }) => {
    const loads = await countDocumentLoads(page);
    const chunkUrls = await failCampaignChunk(page, 1);
    await expect(page.getByRole('heading', { level: 1, name: CAMPAIGNS.maple.title })).toBeVisible();
    await expect(page).toHaveURL(`/campaign/${CAMPAIGNS.maple.id}`);
    expect(chunkUrls).toHaveLength(2);
    expect(new Set(chunkUrls).size).toBe(2);
    expect(await loads()).toBe(1);
  });

  test('the same build retries the import once, then shows the error page, with no reload', async ({
    page,
  }) => {
    const loads = await countDocumentLoads(page);
    const chunkUrls = await failCampaignChunk(page, 2);
    await expect(page.getByRole('heading', { level: 1, name: '500' })).toBeVisible();
    expect(chunkUrls).toHaveLength(2);
    expect(new Set(chunkUrls).size).toBe(2);
    expect(await loads()).toBe(1);
  });

  test('a reload cycle slower than the per-path window stops after 3 reloads, on the 500 view (regression)', async ({
    page,
  }) => {
    // Each document starts as if more than 10 s had passed since the last reload (a slow link, stale HTML):
    // the per-path window alone then granted every reload, forever.
    await page.addInitScript(() => {
      const key = 'campaign-web:reload';
      const records = JSON.parse(sessionStorage.getItem(key) ?? '[]') as { expires: number; at?: number }[];
      const aged = records.map((record) => ({
        ...record,
        expires: record.expires - 11_000,
        ...(record.at === undefined ? {} : { at: record.at - 11_000 }),
      }));
      sessionStorage.setItem(key, JSON.stringify(aged));
    });
    const loads = await countDocumentLoads(page);
    await page.route(LATEST, newerBuild);
    await page.route(CAMPAIGN_CHUNK, (route) => route.abort());
    await page.goto(`/campaign/${CAMPAIGNS.maple.id}`);
    await expect(page.getByRole('heading', { level: 1, name: '500' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
    // The first load and three reloads; the 500 view is where the navigation settled, so no more follow.
    expect(await loads()).toBe(4);
  });

  test('with sessionStorage unusable the app never reloads by itself', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(window, 'sessionStorage', {
        configurable: true,
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    });
    const loads = await countDocumentLoads(page);
    await page.route(LATEST, newerBuild);
    await openLanding(page);
    await page.route(CAMPAIGN_CHUNK, (route) => route.abort());
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expect(page.getByRole('heading', { level: 1, name: '500' })).toBeVisible();
    expect(await loads()).toBe(1);
  });
});

test.describe('build manifest', () => {
  test('the app fetches its manifest about a second after load and applies its redirect rules', async ({
    page,
  }) => {
    await page.clock.install();
    const manifest = page.waitForRequest(/\/_app\/builds\/meta\/[\w-]+\.json$/);
    await openLanding(page);
    await page.clock.fastForward(1_500);
    const request = await manifest;
    const response = await request.response();
    expect(response?.headers()['cache-control']).toContain('immutable');
    const body = (await response?.json()) as { rules: Record<string, unknown> };
    expect(body.rules['/campaigns']).toEqual({ redirect: '/' });
  });

  test('redirect rules apply to a deep link before any script runs', async ({ page }) => {
    await page.goto('/campaigns');
    await expect(page).toHaveURL('/');
    await page.goto('/campaign/components');
    await expect(page).toHaveURL('/campaign/components/info');
    await expect(page.getByRole('heading', { level: 1, name: 'Component gallery' })).toBeVisible();
  });

  test('latest.json is served uncached', async ({ request }) => {
    const response = await request.get('/_app/builds/latest.json');
    expect(response.headers()['cache-control']).toBe('no-store');
    expect(await response.json()).toEqual({ id: expect.any(String), timestamp: expect.any(Number) });
  });

  test('a failing manifest logs the spec line and the app still navigates', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.route(/\/_app\/builds\/meta\//, (route) => route.abort());
    await openLanding(page);
    await expect
      .poll(() => errors.some((text) => text.includes('[nuxt] Error fetching app manifest.')))
      .toBe(true);
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expect(page.getByRole('heading', { level: 1, name: CAMPAIGNS.maple.title })).toBeVisible();
  });

  test('a malformed manifest logs the matcher line and the app still navigates', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.route(/\/_app\/builds\/meta\//, (route) =>
      route.fulfill({ json: { id: 'x', rules: 'nope' } }),
    );
    await openLanding(page);
    await expect
      .poll(() => errors.some((text) => text.includes('Error creating app manifest matcher.')))
      .toBe(true);
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expect(page.getByRole('heading', { level: 1, name: CAMPAIGNS.maple.title })).toBeVisible();
  });
});
