/**
 * The visitor's journeys (e2e/journeys/), in the engine of this project: Chromium, Firefox ESR or WebKitGTK.
 * Each test gets a fresh browser context (Chromium, Firefox) or session (WebKit) and a proxy of its own; it fails
 * on any uncaught error, unhandled rejection or CSP violation the probe saw in any document of the journey.
 */
import { expect } from '@playwright/test';
import './journeys/index';
import { test } from './journeys/fixtures';
import { journeys } from './journeys/journey';

// Slower engines on a loaded machine: each step waits for its condition, never for a fixed time.
test.describe.configure({ timeout: 90_000 });

for (const item of journeys()) {
  test(item.title, async ({ visitor, engineName }, testInfo) => {
    try {
      await item.run(visitor);
    } catch (error) {
      const path = testInfo.outputPath(`${engineName}-failure.png`);
      await visitor.engine.screenshot(path).catch(() => {});
      testInfo.attachments.push({ name: `screenshot in ${engineName}`, path, contentType: 'image/png' });
      throw error;
    }
    if (!item.allowPageErrors)
      expect(visitor.proxy.problems(), `errors and CSP violations in ${engineName}`).toEqual([]);
  });
}
