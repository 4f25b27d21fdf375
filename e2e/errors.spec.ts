/**
 * The error page (404 and 500 views), what it echoes, how it clears, crawlers, and start-up failures.
 *
 * Not covered here: the "Unknown route middleware: '{name}'" error. No route in core/routes.ts names an
 * unknown guard, so no browser action can reach it; the unit tests cover it.
 */
import type { Page } from '@playwright/test';
import {
  announcer,
  CAMPAIGNS,
  expect,
  expectPage,
  GOOGLEBOT_UA,
  header,
  LANDING_TITLE,
  mainHeading,
  openPage,
  pageTitleOf,
  test,
} from './fixtures';

const NOT_FOUND_TITLE = '404 - Page Not Found | campaign-web';
const SERVER_ERROR_TITLE = '500 - Internal Server Error | campaign-web';

function errorMessage(page: Page) {
  return page.getByRole('main').getByRole('paragraph');
}

/** The error page replaces the whole layout: no header, navigation, footer or skip link. */
async function expectNoLayout(page: Page): Promise<void> {
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Skip to content' })).toHaveCount(0);
}

test.describe('404', () => {
  test('an unmatched path shows the 404 page instead of the layout; "Go back home" clears it', async ({
    page,
  }) => {
    await page.goto('/no/such/page');
    await expectPage(page, { url: '/no/such/page', heading: '404', title: NOT_FOUND_TITLE });
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('Page Not Found');
    await expect(errorMessage(page)).toHaveText('Page not found: /no/such/page');
    await expectNoLayout(page);
    // An error on the first load is still moved to and announced, unlike a page.
    await expect(mainHeading(page)).toBeFocused();
    await expect(announcer(page)).toHaveText(NOT_FOUND_TITLE);

    const home = page.getByRole('link', { name: 'Go back home' });
    await expect(home).toHaveAttribute('href', '/');
    await home.click();
    await expectPage(page, { url: '/', heading: LANDING_TITLE, title: pageTitleOf(LANDING_TITLE) });
    await expect(header(page)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
    await expect(mainHeading(page)).toBeFocused();
  });

  test('an invalid campaign id is a 404 echoing the full path; an unknown one has the API message', async ({
    page,
  }) => {
    for (const path of [
      '/campaign/abc',
      '/campaign/0',
      '/campaign/01',
      '/campaign/-1',
      '/campaign/abc?x=1#top',
    ]) {
      await test.step(path, async () => {
        await page.goto(path);
        await expectPage(page, { url: path, heading: '404', title: NOT_FOUND_TITLE });
        await expect(page.getByRole('heading', { level: 2 })).toHaveText('Page Not Found');
        // Title case, unlike the unmatched-path message.
        await expect(errorMessage(page)).toHaveText(`Page Not Found: ${path}`);
        await expect(page.getByRole('link', { name: 'Go back home' })).toBeVisible();
      });
    }
    await test.step('/campaign/999: valid, but the API does not know it', async () => {
      await page.goto('/campaign/999');
      await expectPage(page, { url: '/campaign/999', heading: '404', title: NOT_FOUND_TITLE });
      await expect(page.getByRole('heading', { level: 2 })).toHaveText('Page Not Found');
      await expect(errorMessage(page)).toHaveText('Campaign 999 does not exist.');
    });
  });

  test('markup in a path is shown as text, and a very long path is cut', async ({ page }) => {
    const hostile = [
      '/%3Cimg%20src=x%20onerror=alert(1)%3E',
      '/<b>bold</b>',
      '/no/such/page?q=<i>x</i>#<img src=x onerror=alert(2)>',
    ];
    for (const path of hostile) {
      await test.step(path, async () => {
        await page.goto(path);
        await expect(mainHeading(page)).toHaveText('404');
        // The message is exactly what the address bar holds, character for character.
        const shown = new URL(page.url());
        await expect(errorMessage(page)).toHaveText(
          `Page not found: ${shown.pathname}${shown.search}${shown.hash}`,
        );
        await expect(page.getByRole('main').locator('img, b, i')).toHaveCount(0);
      });
    }

    const long = `/${'a'.repeat(5000)}`;
    await page.goto(long);
    await expectPage(page, { url: long, heading: '404', title: NOT_FOUND_TITLE });
    const message = (await errorMessage(page).textContent()) ?? '';
    expect(message.length).toBeLessThan(250);
    expect(message).toBe(`Page not found: /${'a'.repeat(198)}…`);
  });

  test('malformed escapes in a path reached by back/forward give a 404 page, not a crash', async ({
    page,
  }) => {
    await openPage(page, '/', LANDING_TITLE);
    for (const [path, message] of [
      ['/campaign/%E0%A4%A', 'Page Not Found: /campaign/%E0%A4%A'],
      ['/no/%E0%A4%A/x%ZZ', 'Page not found: /no/%E0%A4%A/x%ZZ'],
    ] as const) {
      await test.step(path, async () => {
        // Forward onto a history entry holding the malformed path (the server is never asked for it).
        await page.evaluate((target) => window.history.pushState(null, '', target), path);
        await page.goBack();
        await expectPage(page, { url: '/', heading: LANDING_TITLE });
        await page.goForward();
        await expectPage(page, { url: path, heading: '404', title: NOT_FOUND_TITLE });
        await expect(errorMessage(page)).toHaveText(message);
        await page.getByRole('link', { name: 'Go back home' }).click();
        await expectPage(page, { url: '/', heading: LANDING_TITLE });
      });
    }
  });

  test('a deep link with malformed escapes gives a 404 page, not a blank one', async ({ page }) => {
    // Regression: Vite's preview server skipped its SPA fallback for paths it cannot decode; build/spaFallback.ts serves the app for them.
    const response = await page.goto('/campaign/%E0%A4%A').catch((error: Error) => error);
    const outcome = response instanceof Error ? response.message.split('\n')[0] : response?.status();
    expect(outcome, 'the server must serve the app for this path').toBe(200);
    await expectPage(page, { url: '/campaign/%E0%A4%A', heading: '404', title: NOT_FOUND_TITLE });
    await expect(errorMessage(page)).toHaveText('Page Not Found: /campaign/%E0%A4%A');
  });
});

test.describe('500', () => {
  test('a server error in page data shows the 500 view with a working "Reload" button', async ({ page }) => {
    // Served as a plain SPA host would (the shell, not the prerendered HTML), so the page waits for the API.
    await page.route('**/campaign/1', (route) =>
      route.request().resourceType() === 'document'
        ? route.fulfill({ path: `${process.env.E2E_OUT_DIR ?? 'dist'}/200.html` })
        : route.continue(),
    );
    await page.route('**/api/campaigns/1', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Boom' }),
      }),
    );
    await page.goto('/campaign/1');
    await expectPage(page, { url: '/campaign/1', heading: '500', title: SERVER_ERROR_TITLE });
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('Internal Server Error');
    await expect(errorMessage(page)).toHaveText('Boom');
    await expect(page.getByRole('link', { name: 'Go back home' })).toHaveCount(0);
    await expectNoLayout(page);

    // A message full of markup is shown as text, never run.
    const markup = '<img src=x onerror=alert(1)><b>bold</b><script>alert(2)</script>';
    await page.route('**/api/campaigns/1', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: markup }),
      }),
    );
    await page.reload();
    await expect(errorMessage(page)).toHaveText(markup);
    await expect(page.getByRole('main').locator('img, b, script')).toHaveCount(0);

    // Once the server recovers, the button loads the page again.
    await page.unroute('**/api/campaigns/1');
    await page.getByRole('button', { name: 'Reload' }).click();
    await expectPage(page, {
      url: '/campaign/1',
      heading: CAMPAIGNS.maple.title,
      title: pageTitleOf(CAMPAIGNS.maple.title),
    });
    await expect(header(page)).toBeVisible();
  });

  test('failures during client-side navigation: unreachable server and a missing page chunk', async ({
    page,
  }) => {
    // Campaign 1 is prerendered: without its payload the navigation asks the API, as for any other page. Both
    // are routed before the page opens: about a second after start the app preloads the payloads of the links on
    // screen, which on a busy machine can come before the page is even hydrated.
    await page.route('**/campaign/1/_payload.json*', (route) => route.fulfill({ status: 404 }));
    await page.route('**/api/campaigns/1', (route) => route.abort('internetdisconnected'));
    await openPage(page, '/', LANDING_TITLE);
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expectPage(page, { url: '/campaign/1', heading: '503' });
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('Internal Server Error');
    await expect(errorMessage(page)).toHaveText(
      'The server could not be reached. Check your connection and try again.',
    );
    await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
    await expect(mainHeading(page)).toBeFocused();

    // Back leaves the error page for the landing page, which is shown again.
    await page.goBack();
    await expectPage(page, { url: '/', heading: LANDING_TITLE });

    // The gallery's code cannot be downloaded: the error views ship in the main bundle, so they still work.
    await page.route(/\/assets\/componentsInfo-[\w-]+\.js(\?.*)?$/, (route) => route.abort());
    await page.getByRole('link', { name: 'Browse the component gallery' }).click();
    await expectPage(page, { url: '/campaign/components/info', heading: '500', title: SERVER_ERROR_TITLE });
    await expect(errorMessage(page)).toHaveText(
      'A part of the app could not be loaded. Check your connection, then reload the page.',
    );
  });
});

test.describe('crawlers', () => {
  test('a crawler gets no error page, only a console error; real pages still render for it', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ userAgent: GOOGLEBOT_UA, ...(baseURL ? { baseURL } : {}) });
    try {
      const page = await context.newPage();
      const suppressed = page.waitForEvent('console', (message) =>
        message.text().includes('Not rendering error page for bot'),
      );
      await page.goto('/no/such/page');
      const message = await suppressed;
      expect(message.type()).toBe('error');
      expect(message.text()).toContain('Googlebot/2.1');

      await expect(page).toHaveURL('/no/such/page');
      await expect(page.getByRole('heading', { name: '404' })).toHaveCount(0);
      await expect(page.getByText('Page not found')).toHaveCount(0);
      await expect(page.getByRole('main')).toBeEmpty();

      await page.goto('/');
      await expect(mainHeading(page)).toHaveText(LANDING_TITLE);
    } finally {
      await context.close();
    }
  });
});

test.describe('start-up failures', () => {
  test('the main script failing to load shows the static notice, never a blank page', async ({ page }) => {
    await page.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
    await page.goto('/');
    const notice = page.getByRole('alert');
    await expect(notice).toBeVisible();
    await expect(notice.getByRole('heading', { level: 1 })).toHaveText('campaign-web could not start');
    await expect(notice.getByRole('button', { name: 'Reload the page' })).toBeVisible();
    await expect(page.getByText('Loading campaign-web…')).toBeHidden();
  });

  test.describe('when mounting throws', () => {
    // The mount error is rethrown on purpose, so error monitoring still sees it.
    test.use({ allowPageErrors: true });

    // The entry imports the app in parts (src/main.tsx); each is a chunk of its own, and any can fail to load.
    for (const part of ['client', 'app', 'start'])
      test(`a start part (${part}-*.js) failing to load shows the static notice`, async ({ page }) => {
        await page.route(new RegExp(`/assets/${part}-[\\w-]+\\.js$`), (route) => route.abort());
        const logged = page.waitForEvent('console', (message) =>
          message.text().includes('Error while mounting app:'),
        );
        await page.goto('/');
        await logged;
        const notice = page.getByRole('alert');
        await expect(notice).toBeVisible();
        await expect(notice.getByRole('heading', { level: 1 })).toHaveText('campaign-web could not start');
      });

    test('a mount failure is logged and shows the static notice', async ({ page }) => {
      await page.route(
        (url) => url.pathname === '/',
        async (route) => {
          const response = await route.fetch();
          const html = await response.text();
          const withoutRoot = html.replace(/<div id="root">[\s\S]*?<\/div>/, '');
          expect(withoutRoot).not.toContain('id="root"');
          await route.fulfill({ response, body: withoutRoot });
        },
      );
      const logged = page.waitForEvent('console', (message) =>
        message.text().includes('Error while mounting app:'),
      );
      await page.goto('/');
      await logged;
      await expect(page.getByRole('alert').getByRole('heading')).toHaveText('campaign-web could not start');
    });
  });
});
