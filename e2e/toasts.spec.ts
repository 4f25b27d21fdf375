/**
 * Toasts in the real browser, with real keyboard and pointer input and Playwright's clock: the toast and
 * toaster machines own every timer, so `page.clock` drives them exactly.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { DEMO, expect, header, openPage, openWithPausedClock, signInWithForm, test } from './fixtures';

const START = new Date('2030-01-01T09:00:00Z').getTime();

/**
 * The box of a toast once its entry animation has finished. The toast slides in from below, so a box measured
 * mid-animation (likely on a busy machine) puts the pointer beside the toast, and the drag never starts.
 */
async function settledBox(toast: Locator) {
  await toast.evaluate((element) =>
    Promise.all(element.getAnimations().map((animation) => animation.finished)),
  );
  const box = await toast.boundingBox();
  if (!box) throw new Error('the toast has no box');
  return box;
}

/**
 * Opens the gallery with a paused fake clock, past start-up timers (the manifest preload): time moves only when
 * a test says so. No toast yet: the session check has finished before the jump (see `openWithPausedClock`).
 */
async function openGallery(page: Page): Promise<void> {
  await openWithPausedClock(page, {
    path: '/campaign/components/info',
    heading: 'Component gallery',
    start: START,
    pauseAt: START + 60_000,
  });
  await expect(toasts(page), 'no toast before the test shows one').toHaveCount(0);
}

function viewport(page: Page): Locator {
  return page.getByRole('region', { name: 'Notifications (F8)' });
}

function toasts(page: Page): Locator {
  return viewport(page).getByRole('listitem');
}

/** The toast showing `title` (newest first in the list). */
function toastTitled(page: Page, title: string): Locator {
  return toasts(page).filter({ hasText: title });
}

/**
 * Presses a gallery button that shows a toast. The toast reaches the toaster in a task after the click's own
 * (`afterInput`), so a test that moves the clock next waits for the toast first (`expectOpen`): moved before
 * the toast exists, the clock runs down none of its time.
 */
async function show(page: Page, name = 'Show toast'): Promise<void> {
  await page.getByRole('button', { name, exact: true }).click();
}

async function expectOpen(toast: Locator): Promise<void> {
  await expect(toast).toHaveAttribute('data-state', 'open');
}

async function expectClosed(toast: Locator): Promise<void> {
  await expect(toast).toHaveAttribute('data-state', 'closed');
}

test.describe('toasts', () => {
  test('close themselves after 5000 ms and leave the DOM 200 ms later', async ({ page }) => {
    await openGallery(page);
    await show(page);
    const toast = toastTitled(page, 'Changes saved');
    await expectOpen(toast);
    await page.clock.runFor(4999);
    await expectOpen(toast);
    await page.clock.runFor(1);
    await expectClosed(toast);
    await page.clock.runFor(199);
    await expect(toasts(page)).toHaveCount(1);
    await page.clock.runFor(1);
    await expect(toasts(page)).toHaveCount(0);
  });

  test('pause while hovered and resume with the remaining time', async ({ page }) => {
    await openGallery(page);
    await show(page);
    const toast = toastTitled(page, 'Changes saved');
    await expectOpen(toast);
    await page.clock.runFor(2000);
    await toast.hover();
    await expect(toast).toHaveAttribute('data-paused');
    await expect(viewport(page)).toHaveAttribute('data-paused');
    await page.clock.runFor(30_000);
    await expectOpen(toast);
    await page.mouse.move(5, 5);
    await expect(toast).not.toHaveAttribute('data-paused');
    await page.clock.runFor(2999);
    await expectOpen(toast);
    await page.clock.runFor(1);
    await expectClosed(toast);
  });

  test('pause while focus is inside (F8) and give focus back on the way out', async ({ page }) => {
    await openGallery(page);
    await show(page);
    const button = page.getByRole('button', { name: 'Show toast', exact: true });
    await expect(button).toBeFocused();
    const toast = toastTitled(page, 'Changes saved');
    await expectOpen(toast);
    await page.clock.runFor(1000);

    await page.keyboard.press('F8');
    await expect(viewport(page)).toBeFocused();
    await expect(toast).toHaveAttribute('data-paused');
    await page.clock.runFor(30_000);
    await expectOpen(toast);

    // Into the list, past the toast and its close button, and out: focus goes back to where it was.
    await page.keyboard.press('Tab');
    await expect(toast).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(toast.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(button).toBeFocused();
    await expect(toast).not.toHaveAttribute('data-paused');

    // Shift+Tab out of the viewport itself does the same.
    await page.keyboard.press('F8');
    await expect(viewport(page)).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(button).toBeFocused();

    await page.clock.runFor(3999);
    await expectOpen(toast);
    await page.clock.runFor(1);
    await expectClosed(toast);
  });

  test('pause while the window is blurred or the page is hidden', async ({ page }) => {
    await openGallery(page);
    await show(page);
    const toast = toastTitled(page, 'Changes saved');
    await expectOpen(toast);
    await page.clock.runFor(1000);
    // Headless Chromium keeps every page focused and visible, so the browser's own events are dispatched.
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    await expect(toast).toHaveAttribute('data-paused');
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    // Still hidden: one reason is left, so the timer stays stopped.
    await page.clock.runFor(30_000);
    await expect(toast).toHaveAttribute('data-paused');
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect(toast).not.toHaveAttribute('data-paused');
    await page.clock.runFor(3999);
    await expectOpen(toast);
    await page.clock.runFor(1);
    await expectClosed(toast);
  });

  test('Escape closes the most recent toast, one per press, or the one that has focus', async ({ page }) => {
    await openGallery(page);
    await show(page, 'Show toast that stays');
    await show(page, 'Show toast with action');
    await show(page, 'Show toast in the background');
    const stays = toastTitled(page, 'Read this first');
    const action = toastTitled(page, 'Campaign archived');
    const background = toastTitled(page, 'Sync finished');
    for (const toast of [stays, action, background]) await expectOpen(toast);

    await page.keyboard.press('Escape');
    await expectClosed(background);
    await expectOpen(action);
    await page.keyboard.press('Escape');
    await expectClosed(action);
    await expectOpen(stays);
    await page.clock.runFor(200);
    await expect(toasts(page)).toHaveCount(1);

    await show(page);
    const fresh = toastTitled(page, 'Changes saved');
    await expectOpen(fresh);
    await stays.focus();
    await page.keyboard.press('Escape');
    await expectClosed(stays);
    await expectOpen(fresh);
    // The closing toast hands focus to the viewport, so the next Escape closes the next toast.
    await expect(viewport(page)).toBeFocused();
    await page.keyboard.press('Escape');
    await expectClosed(fresh);
  });

  /** A fresh toast that stays, and a point on it to drag from. */
  async function stayingToast(page: Page) {
    await openGallery(page);
    await show(page, 'Show toast that stays');
    const toast = toastTitled(page, 'Read this first');
    const box = await settledBox(toast);
    return { toast, x: box.x + 40, y: box.y + box.height / 2 };
  }

  test('a swipe right released below 50 px snaps the toast back', async ({ page }) => {
    const { toast, x, y } = await stayingToast(page);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 30, y, { steps: 6 });
    await expect(toast).toHaveAttribute('data-swipe', 'move');
    await expect(toast).toHaveAttribute('data-swipe-direction', 'right');
    await page.mouse.up();
    await expect(toast).toHaveAttribute('data-swipe', 'cancel');
    await expectOpen(toast);
  });

  test('a swipe right released beyond 50 px closes the toast', async ({ page }) => {
    const { toast, x, y } = await stayingToast(page);
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 80, y, { steps: 8 });
    await expect(toast).toHaveAttribute('data-swipe', 'move');
    await page.mouse.up();
    await expect(toast).toHaveAttribute('data-swipe', 'end');
    await expectClosed(toast);
    await page.clock.runFor(200);
    await expect(toasts(page)).toHaveCount(0);
  });

  test('a drag the wrong way is no swipe', async ({ page }) => {
    await openGallery(page);
    await show(page, 'Show toast that stays');
    const toast = toastTitled(page, 'Read this first');
    const box = await settledBox(toast);
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - 80, y, { steps: 8 });
    await page.mouse.up();
    await expect(toast).not.toHaveAttribute('data-swipe');
    await expectOpen(toast);
  });

  test('show five at most; the sixth waits without counting down', async ({ page }) => {
    await openGallery(page);
    for (let i = 0; i < 6; i += 1) await show(page);
    await expect(toasts(page)).toHaveCount(5);
    await page.clock.runFor(5000);
    await expect(toasts(page).and(page.locator('[data-state=closed]'))).toHaveCount(5);
    await page.clock.runFor(200);
    await expect(toasts(page)).toHaveCount(1);
    const sixth = toasts(page).first();
    await expectOpen(sixth);
    await page.clock.runFor(4999);
    await expectOpen(sixth);
    await page.clock.runFor(1);
    await expectClosed(sixth);
  });

  test('announce foreground toasts assertively and background ones politely', async ({ page }) => {
    await openGallery(page);
    const assertive = page.getByTestId('toast-announcer-foreground');
    const polite = page.getByTestId('toast-announcer-background');
    await expect(assertive).toHaveAttribute('aria-live', 'assertive');
    await expect(polite).toHaveAttribute('aria-live', 'polite');
    await show(page);
    await expect(assertive).toHaveText(
      'Notification Changes saved Your draft is safe. This closes in 5 seconds.',
    );
    await expect(polite).toHaveText('');
    await show(page, 'Show toast in the background');
    await expect(polite).toContainText('Notification Sync finished');
    await expect(assertive).not.toContainText('Sync finished');
  });

  test('actions run and close the toast; unlabelled ones say Action; the close button is named Close', async ({
    page,
  }) => {
    await openGallery(page);
    await show(page, 'Show toast with action');
    const archived = toastTitled(page, 'Campaign archived');
    await archived.getByRole('button', { name: 'Undo' }).click();
    await expectClosed(archived);
    await expectOpen(toastTitled(page, 'Campaign restored'));

    await show(page, 'Show toast with an unlabelled action');
    const plain = toastTitled(page, 'Something happened');
    await expect(plain.getByRole('button', { name: 'Action' })).toBeVisible();
    await plain.getByRole('button', { name: 'Close' }).click();
    await expectClosed(plain);
  });

  test('the viewport is a named landmark holding an ordered list, and axe finds nothing with toasts open', async ({
    page,
  }) => {
    // Two axe runs over the gallery: about 19 s on a quiet 2-core machine with two workers, over 30 s on CI's.
    test.slow();
    await openGallery(page);
    await show(page);
    await show(page, 'Show toast with action');
    await show(page, 'Show toast in the background');
    await expect(viewport(page).getByRole('list')).toHaveCount(1);
    await expect(viewport(page).locator('ol > li')).toHaveCount(3);
    // axe schedules its own timers, so time must flow; the pointer on a toast keeps them all open meanwhile.
    await toasts(page).first().hover();
    await page.clock.resume();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.passes.length).toBeGreaterThan(0);
    expect(
      results.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((n) => n.target).join(', ')}`,
      ),
    ).toEqual([]);

    await page.evaluate(() => document.documentElement.setAttribute('data-color-mode', 'dark'));
    const dark = await new AxeBuilder({ page }).include('[data-scope="toast"][data-part="group"]').analyze();
    expect(dark.violations.map((violation) => violation.id)).toEqual([]);
  });

  test('reduced motion: no enter animation and no moving progress bar', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openGallery(page);
    await show(page);
    const toast = toastTitled(page, 'Changes saved');
    await expect(toast).toHaveCSS('animation-name', 'none');
    await expect(toast.locator('[data-part=progress]')).toBeHidden();
    await page.clock.runFor(5000);
    await expectClosed(toast);
  });

  test('signing in and out is confirmed with a toast', async ({ page }) => {
    await openPage(page, '/login', 'Sign in');
    await signInWithForm(page, DEMO);
    await expect(toastTitled(page, 'Signed in')).toContainText(`Welcome, ${DEMO.displayName}.`);
    await header(page).getByRole('button', { name: 'Sign out' }).click();
    await expect(toastTitled(page, 'Signed out')).toBeVisible();
  });
});
