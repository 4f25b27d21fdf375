/** Font strikes: the text of every page is drawn in a strike the app warms at idle (src/ui/typeScale.ts). */
import type { Page } from '@playwright/test';
import { TYPE_SCALE } from '../src/ui/typeScale';
import { DEMO, expect, openPage, signInViaApi, test } from './fixtures';

/** The `font` shorthand of every visible text's element on the page, as `fontOf` writes it (weight, px, family). */
function fontsOnScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const fonts = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim() || element.getClientRects().length === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden') continue;
      fonts.add(`${style.fontWeight} ${Number.parseFloat(style.fontSize)}px ${style.fontFamily}`);
    }
    return [...fonts].sort();
  });
}

/** What the app warms: TYPE_SCALE resolved against the page's stylesheet, as src/platform/fonts.ts does. */
function warmedFonts(page: Page): Promise<string[]> {
  return page.evaluate((strikes) => {
    const style = getComputedStyle(document.documentElement);
    const read = (name: string) => style.getPropertyValue(name).trim();
    const rootPx = Number.parseFloat(style.fontSize);
    return strikes.map((strike) => {
      const px = Number.parseFloat(read(`--font-sizes-${strike.size}`)) * rootPx;
      const family = read(`--fonts-${strike.family}`);
      return `${read(`--font-weights-${strike.weight}`)} ${px}px ${family}`;
    });
  }, TYPE_SCALE);
}

const WIDTHS = [1280, 375];

for (const width of WIDTHS) {
  test(`every text on every page is drawn in a warmed strike, ${width} px wide`, async ({ page }) => {
    test.slow();
    await page.setViewportSize({ width, height: 800 });
    const seen = new Map<string, string>();
    const look = async (label: string) => {
      for (const font of await fontsOnScreen(page)) if (!seen.has(font)) seen.set(font, label);
    };
    for (const [path, heading] of [
      ['/', /Campaigns that move/],
      ['/campaign/1', /Maple Street/],
      ['/campaign/2', /./],
      ['/campaign/components/info', 'Component gallery'],
      ['/login', 'Sign in'],
      ['/campaign/abc', /./],
      ['/no-such-page', /./],
    ] as const) {
      await openPage(page, path, heading);
      await look(path);
    }
    await openPage(page, '/login', 'Sign in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Enter your email address.');
    await look('/login with errors');
    await openPage(page, '/campaign/components/info', 'Component gallery');
    await page.getByRole('button', { name: 'Show toast with action', exact: true }).click();
    const toast = page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('listitem');
    await expect(toast).toHaveAttribute('data-state', 'open');
    await look('a toast');
    await signInViaApi(page, DEMO);
    await openPage(page, '/home', `Welcome back, ${DEMO.displayName}`);
    await look('/home');
    await openPage(page, '/profile', 'Your profile');
    await look('/profile');
    const warmed = new Set(await warmedFonts(page));
    const missing = [...seen]
      .filter(([font]) => !warmed.has(font))
      .map(([font, where]) => `${font} (${where})`);
    expect(missing, 'strikes drawn that src/ui/typeScale.ts does not list').toEqual([]);
  });
}

test('the app warms every strike of the type scale once the page is idle, each once', async ({ page }) => {
  await page.addInitScript(() => {
    const fonts: string[] = [];
    (window as unknown as { __warmedFonts: string[] }).__warmedFonts = fonts;
    const prototype = OffscreenCanvasRenderingContext2D.prototype;
    const font = Object.getOwnPropertyDescriptor(prototype, 'font');
    Object.defineProperty(prototype, 'font', {
      ...font,
      set(value: string) {
        fonts.push(value);
        font?.set?.call(this, value);
      },
    });
  });
  await openPage(page, '/', /Campaigns that move/);
  const expected = await warmedFonts(page);
  // Fetched when the browser first idles (at most 5 s after the start), then one idle slice or more.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __warmedFonts: string[] }).__warmedFonts), {
      timeout: 15_000,
    })
    .toEqual(expected);
});
