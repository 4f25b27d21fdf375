/**
 * Tooltip delays (spec section 12) with Playwright's clock: 700 ms before the first one opens; after one
 * has been open, the next opens at once until 300 ms after the last one closed.
 */
import type { Page } from '@playwright/test';
import { expect, header, LANDING_TITLE, openPage, test } from './fixtures';

const START = new Date('2030-01-01T09:00:00Z').getTime();
/** One animation frame: a closing tooltip leaves the accessibility tree after its exit frame. */
const FRAME = 20;

async function openWithClock(page: Page, path: string, heading: string): Promise<void> {
  await page.clock.install({ time: START });
  await openPage(page, path, heading);
  await page.clock.pauseAt(START + 60_000);
}

function tooltip(page: Page, text: string) {
  return page.getByRole('tooltip').filter({ hasText: text });
}

/** Hovers the element, then moves the pointer to a neutral spot (the main heading) to leave it. */
async function leave(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('heading', { level: 1 }).hover();
}

test.describe('tooltips', () => {
  test('open after 700 ms, and the next one at once within 300 ms of the last closing', async ({ page }) => {
    await openWithClock(page, '/campaign/components/info', 'Component gallery');
    const share = page.getByRole('button', { name: 'Share' });
    const bookmark = page.getByRole('button', { name: 'Bookmark' });
    const report = page.getByRole('button', { name: 'Report' });

    await share.hover();
    await page.clock.runFor(699);
    await expect(tooltip(page, 'Share')).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(tooltip(page, 'Share')).toBeVisible();

    // Straight to the next: no delay (a frame lets the zero-delay timers and the exit run).
    await bookmark.hover();
    await page.clock.runFor(FRAME);
    await expect(tooltip(page, 'Bookmark')).toBeVisible();
    await expect(tooltip(page, 'Share')).toHaveCount(0);

    // Closed, then onto another button 298 ms later: still at once.
    await leave(page);
    await page.clock.runFor(FRAME);
    await expect(tooltip(page, 'Bookmark')).toHaveCount(0);
    await page.clock.runFor(298 - FRAME);
    await report.hover();
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
    await openWithClock(page, '/campaign/components/info', 'Component gallery');
    const share = page.getByRole('button', { name: 'Share' });
    const report = page.getByRole('button', { name: 'Report' });

    await share.hover();
    await page.clock.runFor(700);
    await expect(tooltip(page, 'Share')).toBeVisible();
    // The pointer goes down and stays down: the pointer-down alone closes it.
    await page.mouse.down();
    await page.clock.runFor(FRAME);
    await expect(tooltip(page, 'Share')).toHaveCount(0);
    await page.mouse.up();

    // Past the skip window, onto another button, and pressed before its 700 ms are up.
    await page.clock.runFor(400);
    await report.hover();
    await page.clock.runFor(300);
    await page.mouse.down();
    await page.mouse.up();
    await page.clock.runFor(700);
    await expect(tooltip(page, 'Report')).toHaveCount(0);
  });

  test('the header’s icon-only colour-mode buttons say what they are', async ({ page }) => {
    await openWithClock(page, '/', LANDING_TITLE);
    const control = header(page).getByRole('radiogroup', { name: 'Color mode' });
    // The real control, not its first-paint stand-in (disabled, without tooltips).
    await expect(control.getByRole('radio', { name: 'Dark' })).toBeEnabled();
    await control.locator('label', { hasText: 'Dark' }).hover();
    await page.clock.runFor(700);
    await expect(tooltip(page, 'Dark')).toBeVisible();
    await control.locator('label', { hasText: 'System' }).hover();
    await page.clock.runFor(1);
    await expect(tooltip(page, 'System')).toBeVisible();
  });
});
