/**
 * The app under the production server's Content-Security-Policy (server/plugins/securityHeaders.ts): every route,
 * every error view, the gallery, toasts, tooltips, colour-mode switching and the update notice run with zero
 * `securitypolicyviolation` events and no CSP console errors.
 */
import type { Page } from '@playwright/test';
import {
  CAMPAIGNS,
  DEMO,
  expect,
  expectPage,
  header,
  headerSignOut,
  LANDING_TITLE,
  mainHeading,
  mainNav,
  openPage,
  signInViaApi,
  signInWithForm,
  test,
} from './fixtures';

const HOUR = 60 * 60 * 1000;

/**
 * Records every CSP violation of every document the page loads, from before its first script on (the event is
 * reported through a binding, so navigations lose nothing), and every console line that speaks of the policy.
 */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeBinding('__cspViolation', (_source, text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __cspViolation: (text: string) => void }).__cspViolation;
      void report(
        `${location.pathname}: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} ${event.sample}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/content security policy|refused to (execute|load|apply|connect|evaluate)/i.test(message.text()))
      violations.push(`console: ${message.text()}`);
  });
  return violations;
}

async function expectStrictPolicy(page: Page, path: string): Promise<void> {
  const response = await page.request.get(path, { headers: { accept: 'text/html' } });
  const csp = response.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self' 'sha256-/);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
}

test.describe('strict CSP', () => {
  test('the watch sees a violation when there is one', async ({ page }) => {
    const violations = await watchCsp(page);
    await openPage(page, '/', LANDING_TITLE);
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.body.append(script);
    });
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(
      await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected),
    ).toBeUndefined();
  });

  test('every public route runs without a violation', async ({ page }) => {
    const violations = await watchCsp(page);
    await expectStrictPolicy(page, '/');
    await openPage(page, '/', LANDING_TITLE);
    await openPage(page, '/login', 'Sign in');
    await openPage(page, `/campaign/${CAMPAIGNS.maple.id}`, CAMPAIGNS.maple.title);
    await openPage(page, '/campaign/components/info', 'Component gallery');
    expect(violations).toEqual([]);
  });

  test('every error view runs without a violation', async ({ page }) => {
    const violations = await watchCsp(page);
    // Error views: no route, a failed validate rule, the API's 404, a page whose data cannot load.
    await page.goto('/no/such/page');
    await expect(page.getByText('Page not found: /no/such/page')).toBeVisible();
    await page.goto('/campaign/abc');
    await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
    await page.goto('/campaign/999');
    await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
    // A signed-in page: its data always comes from the API, never from a prerendered payload.
    await signInViaApi(page, DEMO);
    await page.route('**/api/me/campaigns', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Boom' }),
      }),
    );
    await page.goto('/home');
    await expect(page.getByRole('heading', { name: '500' })).toBeVisible();
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(page.getByRole('heading', { name: '500' })).toBeVisible();
    await page.unroute('**/api/me/campaigns');
    // A path the router cannot decode still gets the app, which explains it.
    await page.goto('/campaign/%E0%A4%A');
    await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
    expect(violations).toEqual([]);
  });

  test('the start-up failure notice and its Reload button work without inline handlers', async ({ page }) => {
    const violations = await watchCsp(page);
    await page.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
    await page.goto('/');
    const notice = page.getByRole('alert');
    await expect(notice.getByRole('heading', { level: 1 })).toHaveText('campaign-web could not start');
    // The notice is styled by the stylesheet, not by style attributes.
    await expect(notice).toHaveCSS('text-align', 'center');
    const reloaded = page.waitForEvent('load');
    await notice.getByRole('button', { name: 'Reload the page' }).click();
    await reloaded;
    await expect(page.getByRole('alert').getByRole('heading', { level: 1 })).toBeVisible();
    expect(violations).toEqual([]);
  });

  test('signed-in routes, toasts, tooltips and colour-mode switching run without a violation', async ({
    page,
  }) => {
    // Sign-in, three pages, five toasts, tooltips and the colour mode: over 20 s on a quiet 2-core machine.
    test.slow();
    const violations = await watchCsp(page);
    // Time flows as usual until the toasts (below).
    await page.clock.install();
    await page.goto('/login');
    await signInWithForm(page, DEMO);
    await expectPage(page, { url: '/home', heading: `Welcome back, ${DEMO.displayName}` });
    await mainNav(page).getByRole('link', { name: 'Profile' }).click();
    await expect(mainHeading(page)).toHaveText('Your profile');
    await openPage(page, '/campaign/components/info', 'Component gallery');
    // A toast leaves after 5 s of the page's time; five clicks on a loaded machine can take longer than that.
    await page.clock.pauseAt(Date.now() + 2_000);
    for (const name of [
      'Show toast',
      'Show toast with action',
      'Show toast with an unlabelled action',
      'Show toast in the background',
      'Show toast that stays',
    ]) {
      await page.getByRole('button', { name, exact: true }).click();
    }
    await expect(page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('listitem')).toHaveCount(
      5,
    );
    await page.clock.resume();
    // The tooltip's code loads on first intent; on a loaded machine the first hover may end before it arrives.
    await expect(async () => {
      await mainHeading(page).hover();
      await page.getByRole('button', { name: 'Share' }).hover();
      await expect(page.getByRole('tooltip').filter({ hasText: 'Share' })).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await openPage(page, '/', LANDING_TITLE);
    const colorMode = header(page).getByRole('radiogroup', { name: 'Color mode' });
    for (const mode of ['Dark', 'Light', 'System']) {
      await colorMode.locator('label', { hasText: mode }).click();
      await expect(colorMode.getByRole('radio', { name: mode })).toBeChecked();
    }
    await headerSignOut(page).click();
    await expect(header(page).getByRole('link', { name: 'Sign in' })).toBeVisible();
    expect(violations).toEqual([]);
  });

  test('the update notice runs without a violation', async ({ page }) => {
    const violations = await watchCsp(page);
    await page.clock.install();
    await page.route('**/_app/builds/latest.json*', (route) =>
      route.fulfill({
        json: { id: 'a-newer-build', timestamp: Date.now() },
        headers: { 'cache-control': 'no-store' },
      }),
    );
    await openPage(page, '/', LANDING_TITLE);
    await page.clock.fastForward(HOUR + 5_000);
    const notice = page
      .getByRole('region', { name: 'Notifications (F8)' })
      .getByRole('listitem')
      .filter({ hasText: 'A new version is available' });
    await expect(notice).toBeVisible();
    await notice.getByRole('button', { name: 'Reload' }).hover();
    expect(violations).toEqual([]);
  });
});
