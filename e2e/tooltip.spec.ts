/**
 * Tooltip delays (spec section 12) with Playwright's clock: 700 ms before the first one opens; after one
 * has been open, the next opens at once until 300 ms after the last one closed.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, header, inputSettled, LANDING_TITLE, openWithPausedClock, test } from './fixtures';

const START = new Date('2030-01-01T09:00:00Z').getTime();
const GALLERY = '/campaign/components/info';
/** The tooltip machine's chunk (src/ui/Tooltip.tsx), loaded on first intent or when the pointer reaches a trigger. */
const TOOLTIP_CHUNK = /\/assets\/Tooltip-[^/?]+\.js$/;
/** One animation frame: a closing tooltip leaves the accessibility tree after its exit frame. */
const FRAME = 20;

async function openWithClock(page: Page, path: string, heading: string): Promise<void> {
  await openWithPausedClock(page, { path, heading, start: START, pauseAt: START + 60_000 });
}

function tooltip(page: Page, text: string) {
  return page.getByRole('tooltip').filter({ hasText: text });
}

/**
 * Moves page time a frame at a time until the tooltip saying `text` has gone: a tooltip hears of a press or a
 * key a task after it (`afterInput`), then leaves after its exit frame.
 */
async function untilGone(page: Page, text: string): Promise<void> {
  await expect
    .poll(async () => {
      await page.clock.runFor(FRAME);
      return tooltip(page, text).count();
    })
    .toBe(0);
}

/** How long the pointer rests on a trigger before its tooltip's machine comes (src/ui/Tooltip.lazy.tsx REST_MS). */
const REST = 100;

/**
 * Points at a trigger and waits until its tooltip's machine has come (the trigger then carries Zag's props):
 * after `rest` ms of page time (REST for the first tooltip, 0 within the skip window).
 */
async function pointAt(page: Page, trigger: Locator, rest: number): Promise<void> {
  await trigger.hover();
  if (rest > 0) await page.clock.runFor(rest);
  await expect(trigger).toHaveAttribute('data-scope', 'tooltip');
}

/** Hovers the element, then moves the pointer to a neutral spot (the main heading) to leave it. */
async function leave(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('heading', { level: 1 }).hover();
}

test.describe('tooltips', () => {
  test('open after 700 ms, and the next one at once within 300 ms of the last closing', async ({ page }) => {
    await openWithClock(page, GALLERY, 'Component gallery');
    const share = page.getByRole('button', { name: 'Share' });
    const bookmark = page.getByRole('button', { name: 'Bookmark' });
    const report = page.getByRole('button', { name: 'Report' });

    await pointAt(page, share, REST);
    await page.clock.runFor(699 - REST);
    await expect(tooltip(page, 'Share')).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(tooltip(page, 'Share')).toBeVisible();

    // Straight to the next: no delay (a frame lets the zero-delay timers and the exit run).
    await pointAt(page, bookmark, 0);
    await page.clock.runFor(FRAME);
    await expect(tooltip(page, 'Bookmark')).toBeVisible();
    await untilGone(page, 'Share');

    // Closed, then onto another button 298 ms later: still at once.
    await leave(page);
    await page.clock.runFor(FRAME);
    await expect(tooltip(page, 'Bookmark')).toHaveCount(0);
    await page.clock.runFor(298 - FRAME);
    await pointAt(page, report, 0);
    await page.clock.runFor(1);
    await expect(tooltip(page, 'Report')).toBeVisible();

    // Closed for 300 ms: the full delay again.
    await leave(page);
    await page.clock.runFor(FRAME);
    await expect(tooltip(page, 'Report')).toHaveCount(0);
    await page.clock.runFor(300);
    await share.hover();
    await page.clock.runFor(699);
    await expect(tooltip(page, 'Share')).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(tooltip(page, 'Share')).toBeVisible();
  });

  test('a press closes the open tooltip at once, and one about to open never opens', async ({ page }) => {
    await openWithClock(page, GALLERY, 'Component gallery');
    const share = page.getByRole('button', { name: 'Share' });
    const report = page.getByRole('button', { name: 'Report' });

    await pointAt(page, share, REST);
    await page.clock.runFor(700 - REST);
    await expect(tooltip(page, 'Share')).toBeVisible();
    // The pointer goes down and stays down: the pointer-down alone closes it.
    await page.mouse.down();
    await untilGone(page, 'Share');
    await page.mouse.up();

    // Past the skip window, onto another button, and pressed before its 700 ms are up.
    await page.clock.runFor(400);
    await report.hover();
    await page.clock.runFor(300);
    await page.mouse.down();
    await page.mouse.up();
    await inputSettled(page);
    await page.clock.runFor(700);
    await expect(tooltip(page, 'Report')).toHaveCount(0);

    // Pressed as soon as the pointer arrives: the tooltip's machine never comes, and nothing opens.
    const bookmark = page.getByRole('button', { name: 'Bookmark' });
    await bookmark.click();
    await inputSettled(page);
    await page.clock.runFor(1000);
    await expect(tooltip(page, 'Bookmark')).toHaveCount(0);
    await expect(bookmark).not.toHaveAttribute('data-scope');
  });

  test('keyboard focus opens a tooltip at once and describes the control; Escape and Tab close it', async ({
    page,
  }) => {
    await openWithClock(page, GALLERY, 'Component gallery');
    const share = page.getByRole('button', { name: 'Share' });
    const bookmark = page.getByRole('button', { name: 'Bookmark' });
    for (let presses = 0; presses < 40; presses += 1) {
      if (await share.evaluate((button) => button === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    await expect(share).toBeFocused();
    // At once: page time stands still.
    await expect(tooltip(page, 'Share')).toBeVisible();
    await expect(share).toHaveAccessibleDescription('Share');

    await page.keyboard.press('Tab');
    await expect(bookmark).toBeFocused();
    await expect(tooltip(page, 'Bookmark')).toBeVisible();
    await untilGone(page, 'Share');

    await page.keyboard.press('Escape');
    await untilGone(page, 'Bookmark');
    await expect(bookmark).toBeFocused();
    await expect(bookmark).not.toHaveAccessibleDescription('Bookmark');
  });

  test('a trigger stays the same element when its tooltip’s code arrives, and the delay counts from the hover', async ({
    page,
  }) => {
    // The tooltip's code is held back until the pointer is on the trigger.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(TOOLTIP_CHUNK, async (route) => {
      await held;
      await route.continue();
    });
    await openWithClock(page, GALLERY, 'Component gallery');
    const share = page.getByRole('button', { name: 'Share' });
    await share.evaluate((button) => {
      (button as HTMLElement & { marked?: boolean }).marked = true;
    });
    await share.hover();
    await page.clock.runFor(300);
    await expect(share).not.toHaveAttribute('data-scope');
    const arrived = page.waitForResponse(TOOLTIP_CHUNK);
    release();
    await arrived;
    await expect(share).toHaveAttribute('data-scope', 'tooltip');
    await page.clock.runFor(399);
    await expect(tooltip(page, 'Share')).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(tooltip(page, 'Share')).toBeVisible();
    expect(await share.evaluate((button) => (button as HTMLElement & { marked?: boolean }).marked)).toBe(
      true,
    );
    // And it still works as a button.
    await share.click();
    await untilGone(page, 'Share');
  });

  test('the header’s icon-only colour-mode buttons say what they are', async ({ page }) => {
    await openWithClock(page, '/', LANDING_TITLE);
    const control = header(page).getByRole('radiogroup', { name: 'Color mode' });
    // The real control, not its first-paint stand-in (disabled, without tooltips).
    await expect(control.getByRole('radio', { name: 'Dark' })).toBeEnabled();
    await pointAt(page, control.locator('label', { hasText: 'Dark' }), REST);
    await page.clock.runFor(700 - REST);
    await expect(tooltip(page, 'Dark')).toBeVisible();
    await pointAt(page, control.locator('label', { hasText: 'System' }), 0);
    await page.clock.runFor(1);
    await expect(tooltip(page, 'System')).toBeVisible();

    // From the keyboard: focus on the checked radio inside its label opens that label's tooltip at once.
    await leave(page);
    await untilGone(page, 'System');
    await page.clock.runFor(300);
    const light = control.getByRole('radio', { name: 'Light' });
    await control.locator('label', { hasText: 'Light' }).click();
    await expect(light).toBeChecked();
    await untilGone(page, 'Light');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(light).toBeFocused();
    await expect(tooltip(page, 'Light')).toBeVisible();
  });
});
