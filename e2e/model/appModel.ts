/**
 * A small model of what a user can do in the app and what they then see, as an XState machine. Each state's
 * `meta.assert` is what must be on screen there (URL, heading, error view, focus, announcement, toasts,
 * colour mode); each event has a driver in `drivers` that does it with real input. `model.spec.ts` walks the
 * paths `@xstate/graph` generates and replays them in Chromium, asserting every state on the way.
 *
 * The model is signed out unless a state says otherwise, and every path starts from a blank tab of a fresh
 * browser context (no cookies, no storage).
 */
import type { Page } from '@playwright/test';
import { createMachine } from 'xstate';
import {
  announcer,
  CAMPAIGNS,
  DEMO,
  expect,
  expectHydrated,
  header,
  headerSignOut,
  LANDING_TITLE,
  mainHeading,
  pageTitleOf,
  signInWithForm,
} from '../fixtures';

export type Assertion = (page: Page) => Promise<void>;

const NOT_FOUND_TITLE = '404 - Page Not Found | campaign-web';
const SERVER_ERROR_TITLE = '500 - Internal Server Error | campaign-web';
const GALLERY_CHUNK = /\/assets\/componentsInfo-[\w-]+\.js(\?.*)?$/;

function errorMessage(page: Page) {
  return page.getByRole('main').getByRole('paragraph');
}

function toastTitled(page: Page, title: string) {
  return page
    .getByRole('region', { name: 'Notifications (F8)' })
    .getByRole('listitem')
    .filter({ has: page.getByText(title, { exact: true }) });
}

/**
 * The landing page, and the app owns it: a link clicked before the app starts (after the first paint) is a
 * document load, which moves no focus, so a state the model clicks from must wait for the app.
 */
async function landingOnScreen(page: Page): Promise<void> {
  await expect(page).toHaveURL('/');
  await expect(mainHeading(page)).toHaveText(LANDING_TITLE);
  await expect(page).toHaveTitle(pageTitleOf(LANDING_TITLE));
  await expect(header(page)).toBeVisible();
  await expectHydrated(page);
}

/** An error view replaces the layout: no banner, the h1 has focus and the title is announced. */
async function errorView(
  page: Page,
  expected: { url: string; status: string; title: string; message: string },
): Promise<void> {
  await expect(page).toHaveURL(expected.url);
  await expect(mainHeading(page)).toHaveText(expected.status);
  await expect(errorMessage(page)).toHaveText(expected.message);
  await expect(page).toHaveTitle(expected.title);
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(mainHeading(page)).toBeFocused();
  await expect(announcer(page)).toHaveText(expected.title);
}

/** A client-side navigation moved focus to the new page's h1 and announced its title. */
async function arrived(page: Page, title: string): Promise<void> {
  await expect(mainHeading(page)).toBeFocused();
  await expect(announcer(page)).toHaveText(pageTitleOf(title));
}

export const appModel = createMachine({
  id: 'appModel',
  initial: 'blank',
  states: {
    blank: {
      meta: {
        assert: async (page: Page) => {
          expect(page.url()).toBe('about:blank');
        },
      },
      on: {
        OPEN_LANDING: 'landing',
        OPEN_MISSING_PAGE: 'notFound',
        OPEN_INVALID_CAMPAIGN: 'invalidCampaign',
        OPEN_HOME_SIGNED_OUT: 'signInForHome',
      },
    },
    landing: {
      meta: { assert: landingOnScreen },
      on: {
        CLICK_CAMPAIGN: 'campaign',
        OPEN_GALLERY_WITHOUT_ITS_CHUNK: 'chunkFailure',
        CHOOSE_DARK: 'landingDark',
      },
    },
    campaign: {
      meta: {
        assert: async (page: Page) => {
          await expect(page).toHaveURL(`/campaign/${CAMPAIGNS.maple.id}`);
          await expect(mainHeading(page)).toHaveText(CAMPAIGNS.maple.title);
          await expect(page).toHaveTitle(pageTitleOf(CAMPAIGNS.maple.title));
          await arrived(page, CAMPAIGNS.maple.title);
        },
      },
      on: { BACK: 'landingWithForward' },
    },
    /** The landing page again, by Back, with the campaign ahead in history. */
    landingWithForward: {
      meta: {
        assert: async (page: Page) => {
          await landingOnScreen(page);
          await arrived(page, LANDING_TITLE);
        },
      },
      on: { FORWARD: 'campaign', CLICK_CAMPAIGN: 'campaign' },
    },
    landingDark: {
      meta: {
        assert: async (page: Page) => {
          await landingOnScreen(page);
          await expect(page.locator('html')).toHaveAttribute('data-color-mode', 'dark');
          await expect(
            header(page).getByRole('radiogroup', { name: 'Color mode' }).getByRole('radio', { name: 'Dark' }),
          ).toBeChecked();
        },
      },
    },
    notFound: {
      meta: {
        assert: (page: Page) =>
          errorView(page, {
            url: '/no/such/page',
            status: '404',
            title: NOT_FOUND_TITLE,
            message: 'Page not found: /no/such/page',
          }),
      },
      on: { CLICK_GO_BACK_HOME: 'landingFromError' },
    },
    /** The landing page reached from an error view: the layout is back and the h1 has focus. */
    landingFromError: {
      meta: {
        assert: async (page: Page) => {
          await landingOnScreen(page);
          await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
          await expect(mainHeading(page)).toBeFocused();
        },
      },
    },
    invalidCampaign: {
      meta: {
        assert: (page: Page) =>
          errorView(page, {
            url: '/campaign/abc',
            status: '404',
            title: NOT_FOUND_TITLE,
            message: 'Page Not Found: /campaign/abc',
          }),
      },
    },
    chunkFailure: {
      meta: {
        assert: (page: Page) =>
          errorView(page, {
            url: '/campaign/components/info',
            status: '500',
            title: SERVER_ERROR_TITLE,
            message: 'A part of the app could not be loaded. Check your connection, then reload the page.',
          }),
      },
      on: { BACK: 'landingAfterError' },
    },
    /** Back out of an error view reached by a link: the page before it, with its layout. */
    landingAfterError: {
      meta: {
        assert: async (page: Page) => {
          await landingOnScreen(page);
          await expect(page.getByRole('heading', { level: 2, name: 'Internal Server Error' })).toHaveCount(0);
        },
      },
    },
    signInForHome: {
      meta: {
        assert: async (page: Page) => {
          await expect(page).toHaveURL('/login?redirect=%2Fhome');
          await expect(mainHeading(page)).toHaveText('Sign in');
          await expect(headerSignOut(page)).toHaveCount(0);
        },
      },
      on: { SIGN_IN: 'home' },
    },
    home: {
      meta: {
        assert: async (page: Page) => {
          await expect(page).toHaveURL('/home');
          await expect(mainHeading(page)).toHaveText(`Welcome back, ${DEMO.displayName}`);
          await expect(toastTitled(page, 'Signed in')).toContainText(`Welcome, ${DEMO.displayName}.`);
          await expect(headerSignOut(page)).toBeVisible();
        },
      },
      on: { SIGN_OUT: 'signedOutOnHome' },
    },
    /** Signing out on a protected page runs its guards again: back to sign in, told so by a toast. */
    signedOutOnHome: {
      meta: {
        assert: async (page: Page) => {
          await expect(page).toHaveURL('/login?redirect=%2Fhome');
          await expect(mainHeading(page)).toHaveText('Sign in');
          await expect(toastTitled(page, 'Signed out')).toBeVisible();
          await expect(headerSignOut(page)).toHaveCount(0);
        },
      },
    },
  },
});

/** How a user does each event of the model, with real input. */
export const drivers: Record<string, (page: Page) => Promise<void>> = {
  OPEN_LANDING: async (page) => {
    await page.goto('/');
  },
  OPEN_MISSING_PAGE: async (page) => {
    await page.goto('/no/such/page');
  },
  OPEN_INVALID_CAMPAIGN: async (page) => {
    await page.goto('/campaign/abc');
  },
  OPEN_HOME_SIGNED_OUT: async (page) => {
    await page.goto('/home');
  },
  CLICK_CAMPAIGN: async (page) => {
    await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
  },
  OPEN_GALLERY_WITHOUT_ITS_CHUNK: async (page) => {
    await page.route(GALLERY_CHUNK, (route) => route.abort());
    await page.getByRole('link', { name: 'Browse the component gallery' }).click();
  },
  CHOOSE_DARK: async (page) => {
    await header(page)
      .getByRole('radiogroup', { name: 'Color mode' })
      .locator('label', { hasText: 'Dark' })
      .click();
  },
  BACK: async (page) => {
    await page.goBack();
  },
  FORWARD: async (page) => {
    await page.goForward();
  },
  CLICK_GO_BACK_HOME: async (page) => {
    await page.getByRole('link', { name: 'Go back home' }).click();
  },
  SIGN_IN: (page) => signInWithForm(page, DEMO),
  SIGN_OUT: async (page) => {
    await headerSignOut(page).click();
  },
};
