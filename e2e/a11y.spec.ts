/** Accessibility: axe on every route and error view, the skip link, and keyboard-only navigation. */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import {
  announcer,
  CAMPAIGNS,
  DEMO,
  expect,
  expectPage,
  LANDING_TITLE,
  mainHeading,
  mainNav,
  openPage,
  signInViaApi,
  test,
} from './fixtures';

/** Runs axe on the page as it is now and fails on any serious or critical violation, listing them. */
async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  await expect(page.getByRole('progressbar', { name: 'Loading page' })).toHaveCount(0);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.passes.length, `axe ran its rules on ${label}`).toBeGreaterThan(0);
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
  expect(serious, `serious or critical axe violations on ${label}`).toEqual([]);
}

/** Presses Tab (or Shift+Tab), as a keyboard user would, until `target` has focus, at most `limit` times. */
async function tabTo(
  page: Page,
  target: Locator,
  key: 'Tab' | 'Shift+Tab' = 'Tab',
  limit = 15,
): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press(key);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  await expect(target, `reachable with at most ${limit} Tab presses`).toBeFocused();
}

test.describe('axe finds no serious or critical violation', () => {
  // axe is CPU-heavy; on a busy two-core machine several runs in one test need more than the default time.
  test.slow();

  test('on the landing and sign-in pages, the form with errors included', async ({ page }) => {
    await openPage(page, '/', LANDING_TITLE);
    await expectNoSeriousViolations(page, '/');

    await mainNav(page).getByRole('link', { name: 'Sign in' }).click();
    await expectPage(page, { url: '/login', heading: 'Sign in' });
    await expectNoSeriousViolations(page, '/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Enter your email address.');
    await expectNoSeriousViolations(page, '/login with field errors');
  });

  test('on the gallery and campaign pages', async ({ page }) => {
    await openPage(page, '/campaign/components/info', 'Component gallery');
    await expectNoSeriousViolations(page, '/campaign/components/info');

    await page.getByRole('link', { name: 'Campaign 1', exact: true }).click();
    await expectPage(page, { url: '/campaign/1', heading: CAMPAIGNS.maple.title });
    await expectNoSeriousViolations(page, '/campaign/1');
  });

  test('on the signed-in pages', async ({ page }) => {
    await signInViaApi(page, DEMO);
    await openPage(page, '/home', `Welcome back, ${DEMO.displayName}`);
    await expectNoSeriousViolations(page, '/home');
    await mainNav(page).getByRole('link', { name: 'Profile' }).click();
    await expectPage(page, { url: '/profile', heading: 'Your profile' });
    await expectNoSeriousViolations(page, '/profile');
  });

  test('on the 404 and 500 error views', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(mainHeading(page)).toHaveText('404');
    await expectNoSeriousViolations(page, 'the 404 view');

    // A campaign that was not prerendered: its first load waits for the API, which fails.
    await page.route('**/api/campaigns/999', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Boom' }),
      }),
    );
    await page.goto('/campaign/999');
    await expect(mainHeading(page)).toHaveText('500');
    await expectNoSeriousViolations(page, 'the 500 view');
  });
});

test.describe('keyboard', () => {
  test('the skip link is the first Tab stop and moves focus into main without navigating', async ({
    page,
  }) => {
    // The landing page checks its campaigns once, in the background, after it shows; on a loaded
    // machine that came after the page was ready (a clean clone's CI counted it as the skip's request).
    const landingChecked = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/campaigns',
    );
    await openPage(page, '/', LANDING_TITLE);
    await landingChecked;
    const apiRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) apiRequests.push(request.url());
    });

    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();

    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // Skipping is not a navigation: same URL, nothing reloaded or announced.
    await expect(page).toHaveURL('/');
    await expect(announcer(page)).toHaveText('');
    expect(apiRequests).toEqual([]);

    // The next Tab continues inside main, past the header and its navigation.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toBeFocused();
  });

  test('the skip link keeps what the user has typed', async ({ page }) => {
    await openPage(page, '/login', 'Sign in');
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await expect(page).toHaveURL('/login');
    await expect(page.getByLabel('Email')).toHaveValue(DEMO.email);
  });

  test('signed out: Tab to "Sign in", Enter, then sign in with the keyboard only', async ({ page }) => {
    await openPage(page, '/', LANDING_TITLE);
    await tabTo(page, mainNav(page).getByRole('link', { name: 'Sign in' }));
    await page.keyboard.press('Enter');
    await expectPage(page, { url: '/login', heading: 'Sign in' });
    await expect(mainHeading(page)).toBeFocused();

    // From the focused heading, the form is the next stop.
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.keyboard.type(DEMO.email);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Password')).toBeFocused();
    await page.keyboard.type(DEMO.password);
    await page.keyboard.press('Enter');
    await expectPage(page, { url: '/home', heading: `Welcome back, ${DEMO.displayName}` });
    await expect(mainHeading(page)).toBeFocused();
  });

  test('signed in: Tab to a nav link and Enter navigates and focuses the new h1', async ({ page }) => {
    await signInViaApi(page, DEMO);
    await openPage(page, '/', LANDING_TITLE);
    await tabTo(page, mainNav(page).getByRole('link', { name: 'Profile' }));
    await page.keyboard.press('Enter');
    await expectPage(page, { url: '/profile', heading: 'Your profile' });
    await expect(mainHeading(page)).toBeFocused();
    await expect(announcer(page)).toHaveText('Your profile | campaign-web');

    // Back up from the heading into the header.
    await tabTo(page, mainNav(page).getByRole('link', { name: 'Home' }), 'Shift+Tab', 5);
    await page.keyboard.press('Enter');
    await expectPage(page, { url: '/home', heading: `Welcome back, ${DEMO.displayName}` });
    await expect(mainHeading(page)).toBeFocused();
  });
});
