/**
 * The visitor's journeys (e2e/journeys/), in the engine of this project: Chromium, Firefox ESR or WebKitGTK.
 * Each test gets a fresh browser context (Chromium, Firefox) or session (WebKit) and a proxy of its own; it fails
 * on any uncaught error, unhandled rejection or CSP violation the probe saw in any document of the journey.
 */
import { expect } from '@playwright/test';
import './journeys/index';
import { test } from './journeys/fixtures';
import { journeys } from './journeys/journey';

for (const item of journeys()) {
  test(item.title, async ({ visitor, engineName }) => {
    await item.run(visitor);
    if (!item.allowPageErrors) expect(visitor.proxy.problems(), `errors and CSP violations in ${engineName}`).toEqual([]);
  });
}
