/**
 * Paths that a browser would read as another host, typed or followed into the address bar: the app normalises
 * them where they enter (dot segments resolved, leading slashes and backslashes collapsed) and replaces the
 * address bar with the normalised path, instead of hanging on the loading shell.
 */
import { CAMPAIGNS, DEMO, expect, expectPage, LANDING_TITLE, openPage, signInViaApi, test } from './fixtures';

/** Raw paths go through `page.goto` on the origin, so the browser sends them exactly as written. */
function raw(baseURL: string | undefined, path: string): string {
  return `${new URL(baseURL ?? '').origin}${path}`;
}

test.describe('first loads of protocol-relative-looking paths', () => {
  const cases: readonly { path: string; url: string; heading: string | RegExp }[] = [
    { path: '//', url: '/', heading: LANDING_TITLE },
    { path: '///campaign/1', url: `/campaign/${CAMPAIGNS.maple.id}`, heading: CAMPAIGNS.maple.title },
    { path: '//campaign/components/info', url: '/campaign/components/info', heading: 'Component gallery' },
    // Browsers read `\` as `/` in http(s) paths: this is `//evil.example`, a page this app does not have.
    { path: '/\\evil.example', url: '/evil.example', heading: '404' },
    { path: '//evil.example', url: '/evil.example', heading: '404' },
  ];
  for (const { path, url, heading } of cases) {
    test(`${JSON.stringify(path)} shows ${url}, with the address bar replaced`, async ({ page, baseURL }) => {
      const origin = new URL(baseURL ?? '').origin;
      await page.goto(raw(baseURL, path));
      await expectPage(page, { url, heading });
      expect(new URL(page.url()).origin).toBe(origin);
      await expect(page.getByText('Loading campaign-web…')).toHaveCount(0);
    });
  }

  test('"//home" goes through the auth guard like /home: to sign in, with return-to /home', async ({
    page,
    baseURL,
  }) => {
    await page.goto(raw(baseURL, '//home'));
    await expectPage(page, { url: '/login?redirect=%2Fhome', heading: 'Sign in' });
  });

  test('"//home" signed in is /home, and the replaced entry leaves no //home behind for Back', async ({
    page,
    baseURL,
  }) => {
    await signInViaApi(page, DEMO);
    await openPage(page, '/', LANDING_TITLE);
    await page.goto(raw(baseURL, '//home'));
    await expectPage(page, { url: '/home', heading: `Welcome back, ${DEMO.displayName}` });
    await page.goBack();
    await expectPage(page, { url: '/', heading: LANDING_TITLE });
    await page.goForward();
    await expectPage(page, { url: '/home', heading: `Welcome back, ${DEMO.displayName}` });
  });
});
