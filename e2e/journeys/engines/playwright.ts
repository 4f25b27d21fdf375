/** Chromium through Playwright (the engine the rest of the e2e suite runs in). */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { Engine, Key, PointerStep } from './engine';

export async function openPlaywright(browser: Browser, userAgent: string | undefined): Promise<Engine> {
  const context: BrowserContext = await browser.newContext({
    userAgent,
    viewport: { width: 1280, height: 800 },
  });
  const page: Page = await context.newPage();
  return {
    name: 'chromium',
    async goto(url) {
      await page.goto(url);
    },
    async reload() {
      await page.reload();
    },
    async back() {
      await page.goBack({ waitUntil: 'commit' });
    },
    async forward() {
      await page.goForward({ waitUntil: 'commit' });
    },
    async url() {
      return page.url();
    },
    evaluate<T>(expression: string) {
      return page.evaluate(expression) as Promise<T>;
    },
    async pointer(steps: readonly PointerStep[]) {
      for (const step of steps) {
        if (step.type === 'move') await page.mouse.move(step.x, step.y, { steps: 4 });
        else if (step.type === 'down') await page.mouse.down();
        else await page.mouse.up();
      }
    },
    async type(text) {
      await page.keyboard.type(text);
    },
    async press(key: Key, modifiers) {
      const name = key === 'Space' ? ' ' : key;
      await page.keyboard.press(modifiers?.shift ? `Shift+${name}` : name);
    },
    async setViewport(width, height) {
      await page.setViewportSize({ width, height });
    },
    async screenshot(path) {
      await page.screenshot({ path, fullPage: true });
    },
    async version() {
      return `Chromium ${browser.version()}`;
    },
    async reset() {
      // A fresh context per journey: nothing to do.
    },
    async close() {
      await context.close();
    },
  };
}
