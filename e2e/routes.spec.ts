/** The six routes, the layout around them, and what a client-side navigation does (focus, title, announcement, loading bar). */
import {
  announcer,
  CAMPAIGNS,
  DEMO,
  expect,
  expectPage,
  header,
  LANDING_TITLE,
  loadingBarRecord,
  mainHeading,
  mainNav,
  openPage,
  pageTitleOf,
  signInViaApi,
  test,
  watchLoadingBar,
} from './fixtures';

test.describe('signed out', () => {
  test('the landing page shows the hero, the live campaigns newest first and the signed-out layout', async ({
    page,
  }) => {
    await openPage(page, '/', LANDING_TITLE);
    await expect(page).toHaveTitle(pageTitleOf(LANDING_TITLE));

    // The live campaigns, newest first (drafts, completed and paused ones are not), each linking to its page;
    // all fit on one page, so there is no "More campaigns" link.
    const live = page.getByRole('region', { name: 'Live campaigns' });
    for (const campaign of [CAMPAIGNS.youthClub, CAMPAIGNS.library, CAMPAIGNS.maple]) {
      await expect(live.getByRole('link', { name: campaign.title, exact: true })).toHaveAttribute(
        'href',
        `/campaign/${campaign.id}`,
      );
    }
    await expect(live.getByRole('heading', { level: 3 })).toHaveText([
      CAMPAIGNS.youthClub.title,
      CAMPAIGNS.library.title,
      CAMPAIGNS.maple.title,
    ]);
    for (const hidden of [CAMPAIGNS.bikes, CAMPAIGNS.creek, CAMPAIGNS.foodBank])
      await expect(live.getByRole('link', { name: hidden.title })).toHaveCount(0);
    await expect(live.getByRole('link', { name: 'More campaigns' })).toHaveCount(0);

    // The layout: home link, main nav with "Sign in" only, skip link, main landmark, footer.
    await expect(header(page).getByRole('link', { name: 'campaign-web' })).toHaveAttribute('href', '/');
    await expect(mainNav(page).getByRole('link')).toHaveText(['Sign in']);
    await expect(mainNav(page).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    await expect(page.getByRole('main')).toHaveAttribute('id', 'main');
    await expect(page.getByRole('contentinfo')).toContainText(
      'campaign-web — where neighbours start, follow and fund the projects that make a street better.',
    );

    // A first load is a document load: focus stays where the browser put it and nothing is announced.
    await expect(mainHeading(page)).not.toBeFocused();
    await expect(announcer(page)).toHaveText('');
    await expect(announcer(page)).toHaveAttribute('aria-live', 'polite');
  });

  test('a campaign page takes its heading and title from the API; drafts exist only for their owner', async ({
    page,
  }) => {
    await openPage(page, '/campaign/3', CAMPAIGNS.creek.title);
    await expect(page).toHaveTitle(pageTitleOf(CAMPAIGNS.creek.title));
    await expect(page.getByRole('main')).toContainText(`Organised by${DEMO.displayName}`);

    await openPage(page, `/campaign/${CAMPAIGNS.bikes.id}`, '404');
    await expect(page.getByRole('main').getByRole('paragraph')).toHaveText('Campaign 5 does not exist.');
    await signInViaApi(page, DEMO);
    await openPage(page, `/campaign/${CAMPAIGNS.bikes.id}`, CAMPAIGNS.bikes.title);
  });

  test('the gallery wins over /campaign/:id; paths match regardless of case and a trailing slash', async ({
    page,
  }) => {
    await openPage(page, '/campaign/components/info', 'Component gallery');
    await expect(page).toHaveTitle('Component gallery | campaign-web');
    await expect(page.getByRole('table')).toContainText('/campaign/:id');
    await openPage(page, '/Campaign/Components/Info/', 'Component gallery');
    await openPage(page, '/LOGIN', 'Sign in');
    await expect(page).toHaveTitle('Sign in | campaign-web');
  });
});

test.describe('signed in as the demo user', () => {
  test('/home greets the user and lists their campaigns; /profile shows their profile', async ({ page }) => {
    await signInViaApi(page, DEMO);
    await openPage(page, '/', LANDING_TITLE);
    await page.getByRole('link', { name: 'Go to your campaigns' }).click();
    await expectPage(page, {
      url: '/home',
      heading: `Welcome back, ${DEMO.displayName}`,
      title: 'Your campaigns | campaign-web',
    });
    const mine = page.getByRole('region', { name: 'Your campaigns' });
    await expect(mine.getByRole('heading', { level: 3 })).toHaveText([
      CAMPAIGNS.maple.title,
      CAMPAIGNS.creek.title,
      CAMPAIGNS.bikes.title,
      CAMPAIGNS.youthClub.title,
    ]);
    await expect(mine.getByRole('link', { name: CAMPAIGNS.library.title })).toHaveCount(0);

    // The signed-in layout: Home (current) and Profile in the nav, a Sign out button, no Sign in link.
    await expect(mainNav(page).getByRole('link')).toHaveText(['Home', 'Profile']);
    await expect(mainNav(page).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await expect(mainNav(page).getByRole('link', { name: 'Profile' })).not.toHaveAttribute('aria-current');
    await expect(header(page).getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);

    await mainNav(page).getByRole('link', { name: 'Profile' }).click();
    await expectPage(page, {
      url: '/profile',
      heading: 'Your profile',
      title: 'Your profile | campaign-web',
    });
    await expect(mainNav(page).getByRole('link', { name: 'Profile' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByLabel('Display name')).toHaveValue(DEMO.displayName);
    await expect(page.getByRole('main')).toContainText(DEMO.email);
    await expect(page.getByRole('button', { name: 'Save changes' })).toBeEnabled();
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign out' })).toBeVisible();
  });
});

test.describe('client-side navigation', () => {
  test('a link commits the URL, sets the title, focuses the new h1 and announces the page', async ({
    page,
  }) => {
    await openPage(page, '/', LANDING_TITLE);
    const documentRequests: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documentRequests.push(request.url());
    });

    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expectPage(page, {
      url: '/campaign/1',
      heading: CAMPAIGNS.maple.title,
      title: pageTitleOf(CAMPAIGNS.maple.title),
    });
    await expect(mainHeading(page)).toBeFocused();
    await expect(announcer(page)).toHaveText(pageTitleOf(CAMPAIGNS.maple.title));

    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'All campaigns' })
      .click();
    await expectPage(page, { url: '/', heading: LANDING_TITLE, title: pageTitleOf(LANDING_TITLE) });
    await expect(mainHeading(page)).toBeFocused();
    await expect(announcer(page)).toHaveText(pageTitleOf(LANDING_TITLE));

    await page.getByRole('contentinfo').getByRole('link', { name: 'Component gallery' }).click();
    await expectPage(page, { url: '/campaign/components/info', heading: 'Component gallery' });
    await expect(mainHeading(page)).toBeFocused();
    await expect(announcer(page)).toHaveText('Component gallery | campaign-web');

    // All of it happened inside the one document.
    expect(documentRequests).toEqual([]);
  });

  test('a slow navigation keeps the old page and URL, shows the loading bar after 250 ms, then commits', async ({
    page,
  }) => {
    // Campaign 1 is prerendered: without its payload the navigation asks the API, as for any other page. The
    // route is in place before the page loads, so the payloads it warms when the manifest arrives miss too.
    await page.route('**/campaign/1/_payload.json*', (route) => route.fulfill({ status: 404 }));
    await openPage(page, '/', LANDING_TITLE);
    await watchLoadingBar(page);

    // Hold the campaign's data until the test has seen the in-between state, then let it through.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/campaigns/1', async (route) => {
      await gate;
      await route.continue();
    });

    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    const bar = page.getByRole('progressbar', { name: 'Loading page' });
    await expect(bar).toBeVisible();
    // Nothing is committed while the page's data is missing.
    await expect(page).toHaveURL('/');
    await expect(mainHeading(page)).toHaveText(LANDING_TITLE);
    await expect(page.getByRole('main')).toHaveAttribute('aria-busy', 'true');
    const { delayAfterClick } = await loadingBarRecord(page);
    expect(delayAfterClick, 'the bar waits for the 250 ms threshold').toBeGreaterThanOrEqual(245);

    release();
    await expectPage(page, { url: '/campaign/1', heading: CAMPAIGNS.maple.title });
    await expect(bar).toHaveCount(0);
    await expect(page.getByRole('main')).toHaveAttribute('aria-busy', 'false');
    expect((await loadingBarRecord(page)).shown).toBe(1);
  });

  test('fast navigations never show the loading bar', async ({ page }) => {
    // "Fast" is page time: with the page's clock standing still, the 250 ms delay cannot run out however busy
    // the machine is, so the bar may only appear if something other than that delay shows it.
    await page.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
    await page.clock.pauseAt(new Date('2026-01-01T00:00:01Z'));
    // Load both pages' code first, so the watched navigations are fast even on a busy machine.
    await openPage(page, '/campaign/components/info', 'Component gallery');
    await page.getByRole('link', { name: 'Home page' }).click();
    await expectPage(page, { url: '/', heading: LANDING_TITLE });

    await watchLoadingBar(page);
    await page.getByRole('link', { name: 'Browse the component gallery' }).click();
    await expectPage(page, { url: '/campaign/components/info', heading: 'Component gallery' });
    await header(page).getByRole('link', { name: 'campaign-web' }).click();
    await expectPage(page, { url: '/', heading: LANDING_TITLE });
    expect((await loadingBarRecord(page)).shown).toBe(0);
  });

  test('a newer navigation supersedes a pending one, whose late data never takes over', async ({ page }) => {
    // Campaign 1 is prerendered: without its payload the navigation asks the API, as for any other page. The
    // route is in place before the page loads, so the payloads it warms when the manifest arrives miss too.
    await page.route('**/campaign/1/_payload.json*', (route) => route.fulfill({ status: 404 }));
    await openPage(page, '/', LANDING_TITLE);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/campaigns/1', async (route) => {
      await gate;
      await route.continue().catch(() => {});
    });
    const cancelled = page.waitForEvent('requestfailed', (request) =>
      request.url().endsWith('/api/campaigns/1'),
    );

    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
    await expect(page.getByRole('progressbar', { name: 'Loading page' })).toBeVisible();
    await page.getByRole('link', { name: 'Browse the component gallery' }).click();
    await expectPage(page, { url: '/campaign/components/info', heading: 'Component gallery' });

    // The superseded request is cancelled, so its answer can never commit campaign 1.
    await cancelled;
    release();
    await expect(page.getByRole('progressbar', { name: 'Loading page' })).toHaveCount(0);
    await expectPage(page, { url: '/campaign/components/info', heading: 'Component gallery' });
  });
});
