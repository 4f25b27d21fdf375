/** Back and forward: they show the right page, run the guards again, and step out of error pages. */
import {
  announcer,
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
  pageTitleOf,
  signInViaApi,
  test,
} from './fixtures';

test('back and forward step through client-side navigations, with focus and announcement', async ({
  page,
}) => {
  await openPage(page, '/', LANDING_TITLE);
  await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
  await expectPage(page, { url: '/campaign/1', heading: CAMPAIGNS.maple.title });
  await page.getByRole('contentinfo').getByRole('link', { name: 'Component gallery' }).click();
  await expectPage(page, { url: '/campaign/components/info', heading: 'Component gallery' });

  await page.goBack();
  await expectPage(page, {
    url: '/campaign/1',
    heading: CAMPAIGNS.maple.title,
    title: pageTitleOf(CAMPAIGNS.maple.title),
  });
  await expect(mainHeading(page)).toBeFocused();
  await expect(announcer(page)).toHaveText(pageTitleOf(CAMPAIGNS.maple.title));

  await page.goBack();
  await expectPage(page, { url: '/', heading: LANDING_TITLE, title: pageTitleOf(LANDING_TITLE) });

  await page.goForward();
  await expectPage(page, { url: '/campaign/1', heading: CAMPAIGNS.maple.title });
  await page.goForward();
  await expectPage(page, {
    url: '/campaign/components/info',
    heading: 'Component gallery',
    title: 'Component gallery | campaign-web',
  });
  await expect(announcer(page)).toHaveText('Component gallery | campaign-web');
});

test('signing out on / stays there; Back into /home then runs the guards and asks to sign in', async ({
  page,
}) => {
  await signInViaApi(page, DEMO);
  await openPage(page, '/', LANDING_TITLE);
  await mainNav(page).getByRole('link', { name: 'Home' }).click();
  await expectPage(page, { url: '/home', heading: `Welcome back, ${DEMO.displayName}` });
  await header(page).getByRole('link', { name: 'campaign-web' }).click();
  await expectPage(page, { url: '/', heading: LANDING_TITLE });
  await expect(page.getByRole('link', { name: 'Go to your campaigns' })).toBeVisible();

  // Signing out on a public page keeps the user there, signed out, on the server too.
  await headerSignOut(page).click();
  await expect(mainNav(page).getByRole('link')).toHaveText(['Sign in']);
  await expectPage(page, { url: '/', heading: LANDING_TITLE });
  await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toBeVisible();
  const session = await page.request.get('/api/session');
  expect(await session.json()).toEqual({ user: null });

  await page.goBack();
  await expectPage(page, { url: '/login?redirect=%2Fhome', heading: 'Sign in' });

  // The redirect replaced the /home entry rather than adding one.
  await page.goBack();
  await expectPage(page, { url: '/', heading: LANDING_TITLE });
  await page.goForward();
  await expectPage(page, { url: '/login?redirect=%2Fhome', heading: 'Sign in' });
});

test('back steps out of error pages reached by links, and forward shows them again', async ({ page }) => {
  await openPage(page, '/campaign/components/info', 'Component gallery');

  await page.getByRole('link', { name: 'A page that does not exist' }).click();
  await expectPage(page, {
    url: '/no/such/page',
    heading: '404',
    title: '404 - Page Not Found | campaign-web',
  });
  await expect(page.getByRole('banner')).toHaveCount(0);

  await page.goBack();
  await expectPage(page, {
    url: '/campaign/components/info',
    heading: 'Component gallery',
    title: 'Component gallery | campaign-web',
  });
  await expect(header(page)).toBeVisible();

  await page.goForward();
  await expectPage(page, { url: '/no/such/page', heading: '404' });
  await expect(page.getByRole('main').getByRole('paragraph')).toHaveText('Page not found: /no/such/page');
  await page.goBack();
  await expectPage(page, { url: '/campaign/components/info', heading: 'Component gallery' });

  await page.getByRole('link', { name: 'An invalid campaign id' }).click();
  await expectPage(page, { url: '/campaign/abc', heading: '404' });
  await expect(page.getByRole('main').getByRole('paragraph')).toHaveText('Page Not Found: /campaign/abc');
  await page.goBack();
  await expectPage(page, { url: '/campaign/components/info', heading: 'Component gallery' });
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
});

test('changing only the #fragment is not a new navigation: typed input survives, nothing is announced', async ({
  page,
}) => {
  // Regression: a back/forward step that moved only the #fragment used to be a full navigation.
  await openPage(page, '/login', 'Sign in');
  await page.getByLabel('Email').fill(DEMO.email);

  // The address bar: same document, new fragment (an in-page anchor link does the same).
  await page.goto('/login#help');
  await expect(page).toHaveURL('/login#help');
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );

  await expect(page.getByLabel('Email')).toHaveValue(DEMO.email, { timeout: 1_000 });
  await expect(announcer(page)).toHaveText('', { timeout: 1_000 });
});
