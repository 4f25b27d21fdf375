/**
 * Firefox through Puppeteer over WebDriver BiDi: the stock Firefox ESR, with no geckodriver (Debian has none, and
 * Playwright's `moz-firefox` channel needs BiDi commands Firefox ESR lacks).
 */
import { writeFile } from 'node:fs/promises';
import puppeteer, { type Browser, type KeyInput } from 'puppeteer-core';
import type { Engine, Key, PointerStep } from './engine';

export function launchFirefox(executablePath: string): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    protocolTimeout: 60_000,
    // A fresh profile each launch; no telemetry, no first-run pages, no update checks.
    extraPrefsFirefox: { 'browser.sessionstore.resume_from_crash': false, 'ui.prefersReducedMotion': 0 },
  });
}

export async function openFirefox(browser: Browser): Promise<Engine> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  const keyOf = (key: Key): KeyInput => (key === 'Space' ? ' ' : key) as KeyInput;
  return {
    name: 'firefox',
    async goto(url) {
      await page.goto(url, { waitUntil: 'load' });
    },
    async reload() {
      await page.reload({ waitUntil: 'load' });
    },
    async back() {
      await page.goBack({ waitUntil: 'load' });
    },
    async forward() {
      await page.goForward({ waitUntil: 'load' });
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
      if (modifiers?.shift) await page.keyboard.down('Shift');
      await page.keyboard.press(keyOf(key));
      if (modifiers?.shift) await page.keyboard.up('Shift');
    },
    async setViewport(width, height) {
      await page.setViewport({ width, height });
    },
    async screenshot(path) {
      await writeFile(path, await page.screenshot({ fullPage: true }));
    },
    async version() {
      return browser.version();
    },
    async reset() {
      // A fresh context per journey: nothing to do.
    },
    async close() {
      await context.close();
    },
  };
}
