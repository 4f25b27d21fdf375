import type { Page, Route } from '@playwright/test';
import { CAMPAIGNS, expect, LANDING_TITLE, test } from './fixtures';

const LATEST = '**/_app/builds/latest.json*';
const CAMPAIGN_CHUNK = /\/assets\/campaign-[^/]+\.js$/;
const HOUR = 60 * 60 * 1000;

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

async function openLanding(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: LANDING_TITLE })).toBeVisible();
}

test.describe('update detection', () => {
  test('a new build is noticed after an hour, announced, and the next link click loads a document', async ({
    page,
  }) => {
    await page.clock.install();
    const loads = await countDocumentLoads(page);
    let checks = 0;
    await page.route(LATEST, (route) => {
      checks += 1;
      return newerBuild(route);
    });
    await openLanding(page);
    await page.clock.fastForward(HOUR - 5_000);
    expect(checks).toBe(0);
    await page.clock.fastForward(10_000);
    const notice = page
      .getByRole('region', { name: 'Notifications (F8)' })
      .getByRole('listitem')
      .filter({ hasText: 'A new version is available' });
    await expect(notice).toBeVisible();
    await expect(notice.getByRole('button', { name: 'Reload' })).toBeVisible();
    expect(checks).toBe(1);
    await page.clock.fastForward(3 * HOUR);
    expect(checks).toBe(1);
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expect(page).toHaveURL(`/campaign/${CAMPAIGNS.maple.id}`);
    await expect(page.getByRole('heading', { level: 1, name: CAMPAIGNS.maple.title })).toBeVisible();
    expect(await loads()).toBe(2);
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
    let checks = 0;
    await page.route(LATEST, (route) => {
      checks += 1;
      return route.fulfill({ json: { id: current.id, timestamp: 1 } });
    });
    await openLanding(page);
    await context.setOffline(true);
    await page.clock.fastForward(HOUR + 1_000);
    expect(checks).toBe(0);
    await context.setOffline(false);
    await expect.poll(() => checks).toBe(1);

    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', {
          configurable: true,
          get: () => (value ? 'hidden' : 'visible'),
        });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    // Hourly steps with a short real wait each, so a timer scheduled late (after the last answer was handled)
    // still falls due while the tab is hidden; no check may go out.
    for (let hour = 0; hour < 3; hour += 1) {
      await page.clock.fastForward(HOUR);
      await expect
        .poll(() => checks, { timeout: 300 })
        .toBe(2)
        .catch(() => {});
    }
    expect(checks).toBe(1);
    await setHidden(false);
    await expect.poll(() => checks).toBe(2);
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

  test('the same build retries the import once, then shows the error page, with no reload', async ({
    page,
  }) => {
    const loads = await countDocumentLoads(page);
    const current = (await (await page.request.get('/_app/builds/latest.json')).json()) as { id: string };
    await page.route(LATEST, (route) => route.fulfill({ json: { id: current.id, timestamp: 1 } }));
    await openLanding(page);
    let chunkRequests = 0;
    await page.route(CAMPAIGN_CHUNK, (route) => {
      chunkRequests += 1;
      return route.abort();
    });
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expect(page.getByRole('heading', { level: 1, name: '500' })).toBeVisible();
    expect(chunkRequests).toBe(2);
    expect(await loads()).toBe(1);
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
