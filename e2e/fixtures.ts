/**
 * Shared helpers of the end-to-end suite.
 *
 * `test` is Playwright's, with a `page` that fails the test on any uncaught exception in the page or any
 * JavaScript dialog (an `alert()` opening means injected markup ran). Tests that provoke a start-up
 * failure on purpose opt out with `test.use({ allowPageErrors: true })`.
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export { expect };

export interface Account {
  readonly email: string;
  readonly password: string;
  readonly displayName: string;
}

/**
 * The two seeded accounts. Only e2e/profile.spec.ts may change Sam's display name (and restores it);
 * every other spec that asserts a name signs in as the demo user, whose name no test changes.
 */
export const DEMO: Account = {
  email: 'demo@example.com',
  password: 'demo-password',
  displayName: 'Demo User',
};
export const SAM: Account = { email: 'sam@example.com', password: 'sam-password', displayName: 'Sam Rivera' };

export const APP_NAME = 'campaign-web';
export const LANDING_TITLE = 'Campaigns that move neighbourhoods';

/** Seeded campaigns the specs read (never write). */
export const CAMPAIGNS = {
  maple: { id: 1, title: 'Maple Street Community Garden' },
  library: { id: 2, title: 'Restock the Lincoln Elementary Library' },
  creek: { id: 3, title: 'Clear Creek River Clean-up' },
  foodBank: { id: 4, title: 'Winter Shelves for the Eastside Food Bank' },
  bikes: { id: 5, title: 'Fix-It Fridays Bike Repair Café' },
  youthClub: { id: 6, title: 'Code After School Youth Club' },
} as const;

/** A user agent that `isbot` recognises as a crawler. */
export const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** `scheduler.postTask`, as far as these helpers use it (TypeScript's DOM library lacks it). */
type PostTask = (task: () => void, options?: { priority?: string; delay?: number }) => unknown;

export const test = base.extend<{ allowPageErrors: boolean; viewportPrefetch: boolean }>({
  allowPageErrors: [false, { option: true }],
  /**
   * Links on screen have their page's chunk and data prefetched when the browser is idle (src/ui/usePrefetch.ts).
   * Most specs intercept the very request a click makes (a chunk that fails, data that hangs), so that idle
   * prefetch is off unless a spec asks for it: with no IntersectionObserver reports, no link counts as on screen.
   * Prefetch on pointer and focus intent stays on everywhere.
   */
  viewportPrefetch: [false, { option: true }],
  page: async ({ page, allowPageErrors, viewportPrefetch }, use) => {
    if (!viewportPrefetch) {
      await page.addInitScript(() => {
        window.IntersectionObserver = class {
          readonly root = null;
          readonly rootMargin = '0px';
          readonly thresholds = [0];
          observe() {}
          unobserve() {}
          disconnect() {}
          takeRecords() {
            return [];
          }
        } as unknown as typeof IntersectionObserver;
      });
    }
    // A stress mode (docs/testing.md): every task the app defers past an input or a frame comes this much later,
    // as on a slow, busy phone. A test that acts before the app has taken the input fails under it.
    const taskDelayMs = Number(process.env.E2E_TASK_DELAY_MS) || 0;
    if (taskDelayMs > 0) {
      await page.addInitScript((delay) => {
        const { scheduler } = globalThis as { scheduler?: { postTask?: PostTask } };
        if (!scheduler?.postTask) return;
        const post = scheduler.postTask.bind(scheduler);
        scheduler.postTask = (task, options) =>
          post(task, { ...options, delay: (options?.delay ?? 0) + delay });
      }, taskDelayMs);
    }
    const pageErrors: string[] = [];
    const dialogs: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => {});
    });
    await use(page);
    expect(dialogs, 'no JavaScript dialog may open (injected markup must never run)').toEqual([]);
    if (!allowPageErrors) expect(pageErrors, 'uncaught exceptions in the page').toEqual([]);
  },
});

/** The page's main heading: the `h1` inside the `main` landmark (pages and error views alike). */
export function mainHeading(page: Page): Locator {
  return page.getByRole('main').getByRole('heading', { level: 1 });
}

/** The polite live region that announces each client-side navigation. */
export function announcer(page: Page): Locator {
  return page.getByTestId('route-announcer');
}

export function header(page: Page): Locator {
  return page.getByRole('banner');
}

export function mainNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main' });
}

/** The header's "Sign out" button (the profile page has a second one inside `main`). */
export function headerSignOut(page: Page): Locator {
  return header(page).getByRole('button', { name: 'Sign out' });
}

export function pageTitleOf(title: string): string {
  return `${title} | ${APP_NAME}`;
}

/**
 * Signs the page's browser context in through the API: the HTTP-only `sid` cookie lands in the context,
 * so the next document load starts signed in. Use `signInWithForm` to exercise the real form.
 */
export async function signInViaApi(page: Page, account: Account): Promise<void> {
  const response = await page.request.post('/api/session', {
    data: { email: account.email, password: account.password },
    headers: sameOrigin(),
  });
  expect(response.status(), `signing in ${account.email} through the API`).toBe(200);
}

/**
 * The `Origin` a page of the app sends: the API refuses writes without it (cross-site request
 * protection), and Playwright's `page.request` does not add it the way a browser's fetch does.
 */
export function sameOrigin(): Record<string, string> {
  return { origin: new URL(String(test.info().project.use.baseURL)).origin };
}

/** Fills and submits the sign-in form of the page on screen (which must be /login). */
export async function signInWithForm(
  page: Page,
  account: Pick<Account, 'email' | 'password'>,
): Promise<void> {
  await expect(mainHeading(page)).toHaveText('Sign in');
  await expectHydrated(page);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Waits until React owns the page's main heading. A prerendered page shows its heading (and its buttons)
 * before it hydrates, and a click or a keystroke before that does nothing: waiting for the text alone
 * made tests that click at once flaky on a busy machine.
 */
export async function expectHydrated(page: Page): Promise<void> {
  await expect
    .poll(() =>
      mainHeading(page).evaluate((heading) => Object.keys(heading).some((key) => key.startsWith('__react'))),
    )
    .toBe(true);
}

/** Opens a path and waits until the app has rendered that page's main heading and owns it. */
export async function openPage(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(path);
  await expect(mainHeading(page)).toHaveText(heading);
  await expectHydrated(page);
}

/** Asserts the committed page: address bar, main heading and document title. */
export async function expectPage(
  page: Page,
  expected: { readonly url: string | RegExp; readonly heading: string | RegExp; readonly title?: string },
): Promise<void> {
  await expect(page).toHaveURL(expected.url);
  await expect(mainHeading(page)).toHaveText(expected.heading);
  if (expected.title !== undefined) await expect(page).toHaveTitle(expected.title);
}

/**
 * Starts recording whether the slow-navigation bar enters the DOM, from now on (call it once the first
 * page is on screen, so a slow first load cannot count). A MutationObserver sees even a bar that lives
 * for one frame, so "never appeared" cannot pass just because it was polled at the wrong moment. It also
 * notes when the last click happened and when the bar first appeared, to check the 250 ms threshold.
 */
export async function watchLoadingBar(page: Page): Promise<void> {
  await expect(page.getByRole('progressbar', { name: 'Loading page' })).toHaveCount(0);
  await page.evaluate(() => {
    const w = window as unknown as LoadingBarRecord;
    w.__loadingBar = { shown: 0, firstShownAt: null, lastClickAt: null };
    const record = w.__loadingBar;
    document.addEventListener('click', () => (record.lastClickAt = performance.now()), { capture: true });
    let present = false;
    new MutationObserver(() => {
      const now = document.querySelector('[role="progressbar"][aria-label="Loading page"]') !== null;
      if (now && !present) {
        record.shown += 1;
        record.firstShownAt ??= performance.now();
      }
      present = now;
    }).observe(document.body, { childList: true, subtree: true });
  });
}

interface LoadingBarRecord {
  __loadingBar?: { shown: number; firstShownAt: number | null; lastClickAt: number | null };
}

/** What `watchLoadingBar` saw: how often the bar appeared, and ms from the last click to its first appearance. */
export async function loadingBarRecord(
  page: Page,
): Promise<{ shown: number; delayAfterClick: number | null }> {
  return page.evaluate(() => {
    const record = (window as unknown as LoadingBarRecord).__loadingBar;
    if (!record) throw new Error('watchLoadingBar was not called');
    const { shown, firstShownAt, lastClickAt } = record;
    return {
      shown,
      delayAfterClick: firstShownAt !== null && lastClickAt !== null ? firstShownAt - lastClickAt : null,
    };
  });
}

/**
 * A "nothing happens" check: `read()` must keep returning `expected` for `ms` of real time, looked at every
 * 50 ms, so a wrong behaviour has the whole window to show (an immediate check passes before anything could).
 */
export async function expectStays<T>(read: () => T | Promise<T>, expected: T, ms: number): Promise<void> {
  const until = Date.now() + ms;
  do {
    const value: unknown = await read();
    expect(value, `unchanged for ${ms} ms`).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (Date.now() < until);
  const last: unknown = await read();
  expect(last, `unchanged for ${ms} ms`).toEqual(expected);
}

/**
 * Waits until the page has run what its last input deferred (src/platform/tasks.ts: `afterInput` posts a
 * user-visible task): a background task posted now runs only after every user-visible one. For a test that
 * moves a paused page clock right after a press whose effect cannot be seen yet (a tooltip about to open that
 * the press cancels): moved first, the clock would run ahead of the press.
 */
export async function inputSettled(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const { scheduler } = globalThis as {
          scheduler?: { postTask?: (task: () => void, options: object) => void };
        };
        if (scheduler?.postTask) scheduler.postTask(resolve, { priority: 'background' });
        else resolve();
      }),
  );
}

/** What `trackFetches` keeps on the page's window. */
interface FetchCount {
  __fetchesInFlight: number;
}

/**
 * Counts the page's fetches as its scripts see them, from the next document on: a fetch is in flight until it
 * has failed, or answered and had its body read. `waitForFetches` waits for none. A paused page clock that
 * jumps while a request's body is still being read fires the request's timeout (src/platform/signals.ts):
 * the session check then fails with a toast of its own. (Waiting for the response is not enough: it comes
 * before the body, and a busy machine reads the body later.)
 */
export async function trackFetches(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const count = window as unknown as FetchCount;
    count.__fetchesInFlight = 0;
    const counted = <T>(promise: Promise<T>): Promise<T> => {
      count.__fetchesInFlight += 1;
      const done = () => {
        count.__fetchesInFlight -= 1;
      };
      // Attached before the caller's own `then`: the count drops and, in the same microtasks, the caller's
      // body read counts again; a check from another task never sees the gap.
      promise.then(done, done);
      return promise;
    };
    const fetch = window.fetch;
    window.fetch = (...args) => counted(fetch(...args));
    for (const name of ['text', 'json', 'arrayBuffer', 'blob'] as const) {
      const read = Response.prototype[name] as (this: Response) => Promise<unknown>;
      Object.defineProperty(Response.prototype, name, {
        configurable: true,
        writable: true,
        value(this: Response) {
          return counted(read.call(this));
        },
      });
    }
  });
}

/** Waits until none of the page's fetches is in flight (`trackFetches` must have been called before it opened). */
export async function waitForFetches(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as FetchCount).__fetchesInFlight), {
      message: 'fetches in flight',
    })
    .toBe(0);
}

/**
 * Opens a page on Playwright's clock, installed at `start`, and once the app has started (its session check
 * answered and read), jumps to `pauseAt` and holds the clock there: time moves only when the test says so.
 */
export async function openWithPausedClock(
  page: Page,
  { path, heading, start, pauseAt }: { path: string; heading: string; start: number; pauseAt: number },
): Promise<void> {
  await page.clock.install({ time: start });
  await trackFetches(page);
  const session = page.waitForResponse((response) => response.url().endsWith('/api/session'));
  await openPage(page, path, heading);
  await session;
  await waitForFetches(page);
  await page.clock.pauseAt(pauseAt);
}
