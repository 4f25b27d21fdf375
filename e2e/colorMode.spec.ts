/**
 * Colour mode in the real browser: the preference persists, `system` follows the OS live, the gallery is
 * forced dark from the first paint and gives the preference back on leaving, the boot script alone paints
 * the right mode, broken storage loses nothing, a second tab follows, and both modes pass axe.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, header, LANDING_TITLE, mainHeading, openPage, test } from './fixtures';

const KEY = 'color-mode';
const GALLERY = '/campaign/components/info';

function control(scope: Locator): Locator {
  return scope.getByRole('radiogroup', { name: 'Color mode' });
}

/**
 * Clicks a mode in the header and waits until the app has taken it: the choice reaches the colour-mode machine
 * a task after the click (`afterInput`), and until then React keeps the previous radio checked.
 */
async function choose(page: Page, label: 'Light' | 'Dark' | 'System'): Promise<void> {
  const group = control(header(page));
  await group.locator('label', { hasText: label }).click();
  await expect(group.getByRole('radio', { name: label })).toBeChecked();
}

async function expectMode(page: Page, mode: 'light' | 'dark'): Promise<void> {
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-color-mode', mode);
  await expect(html).toHaveClass(new RegExp(`(^|\\s)${mode}(\\s|$)`));
  await expect(html).not.toHaveClass(new RegExp(`(^|\\s)${mode === 'dark' ? 'light' : 'dark'}(\\s|$)`));
  expect(await html.evaluate((el) => getComputedStyle(el).colorScheme)).toBe(mode);
}

async function stored(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), KEY);
}

/** Every value `data-color-mode` takes on `<html>` from the very start of each document load. */
async function recordModes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __modes: string[] }).__modes = seen;
    new MutationObserver((records) => {
      for (const record of records)
        if (record.target === document.documentElement)
          seen.push(document.documentElement.getAttribute('data-color-mode') ?? '');
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-color-mode'] });
  });
}

async function modesSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __modes: string[] }).__modes);
}

test.describe('colour mode', () => {
  for (const [label, scheme, expected] of [
    ['Light', 'dark', 'light'],
    ['Dark', 'light', 'dark'],
    ['System', 'dark', 'dark'],
  ] as const) {
    test(`${label} persists across a reload`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openPage(page, '/', LANDING_TITLE);
      // Away first, so that choosing it is a change even for the default.
      await choose(page, label === 'Dark' ? 'Light' : 'Dark');
      await choose(page, label);
      await expectMode(page, expected);
      expect(await stored(page)).toBe(label.toLowerCase());
      await recordModes(page);
      await page.reload();
      await expect(mainHeading(page)).toHaveText(LANDING_TITLE);
      await expectMode(page, expected);
      await expect(control(header(page)).getByRole('radio', { name: label })).toBeChecked();
      // No flash on the reload: the mode was right from the boot script on, never the other one.
      expect(await modesSeen(page)).toEqual(expect.arrayContaining([expected]));
      expect((await modesSeen(page)).every((mode) => mode === expected)).toBe(true);
    });
  }

  test('system follows the OS setting live', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openPage(page, '/', LANDING_TITLE);
    await expectMode(page, 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectMode(page, 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectMode(page, 'light');
    // A fixed preference ignores it.
    await choose(page, 'Dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectMode(page, 'dark');
  });

  test('the keyboard alone: Tab reaches the checked mode, arrows choose, with a visible focus ring', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openPage(page, '/', LANDING_TITLE);
    const group = control(header(page));
    await expect(group.getByRole('radio', { name: 'Dark' })).toBeEnabled();
    // One Tab stop for the group, on the checked radio ("System" by default), whatever comes before it.
    for (let presses = 0; presses < 10; presses += 1) {
      if (
        await group
          .getByRole('radio', { name: 'System' })
          .evaluate((radio) => radio === document.activeElement)
      )
        break;
      await page.keyboard.press('Tab');
    }
    const system = group.getByRole('radio', { name: 'System' });
    await expect(system).toBeFocused();
    const ring = await group
      .locator('label', { hasText: 'System' })
      .evaluate((label) => getComputedStyle(label).outlineStyle);
    expect(ring).toBe('solid');
    await page.keyboard.press('ArrowLeft');
    await expect(group.getByRole('radio', { name: 'Dark' })).toBeFocused();
    await expect(group.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await expectMode(page, 'dark');
    expect(await stored(page)).toBe('dark');
    await page.keyboard.press('ArrowLeft');
    await expect(group.getByRole('radio', { name: 'Light' })).toBeChecked();
    await expectMode(page, 'light');
    // The group is one Tab stop: the next Tab leaves it.
    await page.keyboard.press('Tab');
    expect(await group.evaluate((root) => root.contains(document.activeElement))).toBe(false);
  });

  test('the gallery paints dark on a cold load and gives the preference back on leaving', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openPage(page, '/', LANDING_TITLE);
    await choose(page, 'Light');
    await recordModes(page);
    await openPage(page, GALLERY, 'Component gallery');
    await expectMode(page, 'dark');
    expect(await modesSeen(page)).toEqual(expect.arrayContaining(['dark']));
    expect((await modesSeen(page)).every((mode) => mode === 'dark')).toBe(true);
    // The preference cannot be changed here, and is not.
    await expect(control(header(page)).getByRole('radio', { name: 'Light' })).toBeChecked();
    await expect(control(header(page)).getByRole('radio', { name: 'Dark' })).toBeDisabled();
    await expect(page.getByText('This page is always shown dark')).toBeVisible();
    expect(await stored(page)).toBe('light');
    await header(page).getByRole('link', { name: 'campaign-web' }).click();
    await expect(mainHeading(page)).toHaveText(LANDING_TITLE);
    await expectMode(page, 'light');
    expect(await stored(page)).toBe('light');
    // And Back to the gallery forces it again.
    await page.goBack();
    await expect(mainHeading(page)).toHaveText('Component gallery');
    await expectMode(page, 'dark');
  });

  test.describe('with the app’s JavaScript blocked, the boot script alone', () => {
    test.beforeEach(async ({ page }) => {
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    });

    for (const [name, storedValue, scheme, path, expected] of [
      ['applies a stored dark', 'dark', 'light', '/', 'dark'],
      ['applies a stored light', 'light', 'dark', '/', 'light'],
      ['resolves system from the OS', 'system', 'dark', '/', 'dark'],
      ['treats nothing stored as system', null, 'dark', '/login', 'dark'],
      ['treats a corrupt value as system', 'purple', 'dark', '/', 'dark'],
      ['forces the gallery dark', 'light', 'light', GALLERY, 'dark'],
      [
        'forces the gallery dark, trailing slash and any case',
        'light',
        'light',
        '/Campaign/Components/Info/',
        'dark',
      ],
      ['does not force a campaign page', 'light', 'dark', '/campaign/1', 'light'],
    ] as const) {
      test(name, async ({ page }) => {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto('/favicon.svg');
        await page.evaluate(
          ([key, value]) =>
            value === null ? localStorage.removeItem(key) : localStorage.setItem(key, value),
          [KEY, storedValue] as const,
        );
        await page.goto(path);
        // The app never ran: its code could not load, and the page says so.
        await expect(page.locator('#boot-failure')).toBeVisible();
        const html = page.locator('html');
        await expect(html).toHaveAttribute('data-color-mode', expected);
        await expect(html).toHaveClass(expected);
      });
    }

    test('survives storage that throws and a missing matchMedia (light)', async ({ page }) => {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.addInitScript(() => {
        Object.defineProperty(window, 'localStorage', {
          get() {
            throw new DOMException('denied', 'SecurityError');
          },
        });
        Object.defineProperty(window, 'matchMedia', { value: undefined });
      });
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('data-color-mode', 'light');
    });
  });

  test('a corrupt stored value is repaired to system and rewritten', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/favicon.svg');
    await page.evaluate((key) => localStorage.setItem(key, 'purple'), KEY);
    await openPage(page, '/', LANDING_TITLE);
    await expectMode(page, 'dark');
    await expect(control(header(page)).getByRole('radio', { name: 'System' })).toBeChecked();
    await expect.poll(() => stored(page)).toBe('system');
  });

  test('storage that throws falls back to memory and the control still works', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.addInitScript(() => {
      Storage.prototype.getItem = () => {
        throw new DOMException('denied', 'SecurityError');
      };
      Storage.prototype.setItem = () => {
        throw new DOMException('quota', 'QuotaExceededError');
      };
    });
    await openPage(page, '/', LANDING_TITLE);
    await expectMode(page, 'light');
    await choose(page, 'Dark');
    await expectMode(page, 'dark');
    await expect(control(header(page)).getByRole('radio', { name: 'Dark' })).toBeChecked();
  });

  test('a missing matchMedia means light, and the app still runs', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.addInitScript(() => Object.defineProperty(window, 'matchMedia', { value: undefined }));
    await openPage(page, '/', LANDING_TITLE);
    await expectMode(page, 'light');
  });

  test('a second tab follows a change at once', async ({ page, context }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openPage(page, '/', LANDING_TITLE);
    const other = await context.newPage();
    await other.emulateMedia({ colorScheme: 'light' });
    await openPage(other, '/login', 'Sign in');
    await expectMode(other, 'light');
    await choose(page, 'Dark');
    await expectMode(other, 'dark');
    await expect(control(header(other)).getByRole('radio', { name: 'Dark' })).toBeChecked();
    await choose(page, 'System');
    await expectMode(other, 'light');
    await other.close();
  });

  for (const mode of ['Light', 'Dark'] as const) {
    test(`axe finds nothing serious in ${mode.toLowerCase()} mode`, async ({ page }) => {
      // Four pages, each analysed by axe: about 15 s on a quiet 2-core machine.
      test.slow();
      await openPage(page, '/', LANDING_TITLE);
      await choose(page, mode);
      await expectMode(page, mode === 'Light' ? 'light' : 'dark');
      for (const [path, heading] of [
        ['/', LANDING_TITLE],
        ['/login', 'Sign in'],
        ['/campaign/1', /Maple Street/],
        [GALLERY, 'Component gallery'],
      ] as const) {
        await openPage(page, path, heading);
        const results = await new AxeBuilder({ page }).analyze();
        const serious = results.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map(
            (violation) =>
              `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
          );
        expect(serious, `${path} in ${mode}`).toEqual([]);
      }
    });
  }
});

test.describe('colour mode without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  /** The page's background, as painted: the theme's `bg` colour on `<html>`. */
  async function background(page: Page): Promise<string> {
    return page.locator('html').evaluate((el) => getComputedStyle(el).backgroundColor);
  }

  test('a page follows the system’s colour scheme, and the gallery is dark whatever the system says', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await expect(page.locator('html')).not.toHaveAttribute('data-color-mode');
    const light = await background(page);
    expect(await page.locator('html').evaluate((el) => getComputedStyle(el).colorScheme)).toBe('light');

    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await background(page);
    expect(dark).not.toBe(light);
    expect(await page.locator('html').evaluate((el) => getComputedStyle(el).colorScheme)).toBe('dark');

    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(GALLERY);
    await expect(page.locator('html')).toHaveAttribute('data-color-mode', 'dark');
    expect(await background(page)).toBe(dark);
  });

  test('the control says it cannot be used: a disabled radio group showing the default', async ({ page }) => {
    await page.goto('/');
    const group = control(header(page));
    await expect(group).toHaveAttribute('aria-disabled', 'true');
    for (const name of ['Light', 'Dark', 'System'])
      await expect(group.getByRole('radio', { name })).toBeDisabled();
    await expect(group.getByRole('radio', { name: 'System' })).toBeChecked();
    await group.locator('label', { hasText: 'Dark' }).click({ force: true });
    await expect(group.getByRole('radio', { name: 'System' })).toBeChecked();
  });
});

test('before the app has started the control is disabled; it is enabled in place once the app runs', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'commit' });
  const group = control(header(page));
  const dark = group.getByRole('radio', { name: 'Dark' });
  await expect(dark).toBeDisabled();
  await expect(group).toHaveAttribute('aria-disabled', 'true');
  const box = await group.boundingBox();
  const results = await new AxeBuilder({ page }).include('header').analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
  release();
  await expect(dark).toBeEnabled();
  await expect(group).not.toHaveAttribute('aria-disabled');
  expect(await group.boundingBox()).toEqual(box);
  await choose(page, 'Dark');
  await expectMode(page, 'dark');
});
