/**
 * The journeys' fixtures: per worker, the engine's browser (Chromium and Firefox) or WebDriver server (WebKit);
 * per test, a proxy and a fresh context or session, wrapped in a `Visitor`.
 */
import { test as base, chromium } from '@playwright/test';
import getPort from 'get-port';
import type { Browser as FirefoxBrowser } from 'puppeteer-core';
import type { Engine, EngineName } from './engines/engine';
import { openPlaywright } from './engines/playwright';
import { launchFirefox, openFirefox } from './engines/puppeteer';
import { openWebKit, startWebKitWebDriver, type WebDriverServer } from './engines/webdriver';
import { JourneyProxy } from './proxy';
import { Visitor } from './visitor';

export const MINIBROWSER =
  process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const WEBKIT_WEBDRIVER = process.env.WEBKIT_WEBDRIVER_PATH || '/usr/bin/WebKitWebDriver';
export const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

type Host =
  | { readonly engine: 'chromium'; readonly browser: import('@playwright/test').Browser }
  | { readonly engine: 'firefox'; readonly browser: FirefoxBrowser }
  | { readonly engine: 'webkit'; readonly server: WebDriverServer; session: Engine | null };

export const test = base.extend<{ visitor: Visitor }, { engineName: EngineName; host: Host }>({
  engineName: ['chromium', { option: true, scope: 'worker' }],
  host: [
    async ({ engineName, launchOptions }, use) => {
      if (engineName === 'chromium') {
        const browser = await chromium.launch(launchOptions);
        await use({ engine: 'chromium', browser });
        await browser.close();
      } else if (engineName === 'firefox') {
        const browser = await launchFirefox(FIREFOX);
        await use({ engine: 'firefox', browser });
        await browser.close();
      } else {
        // One MiniBrowser per worker, reset between journeys: starting one takes seconds on a loaded machine.
        const server = await startWebKitWebDriver(WEBKIT_WEBDRIVER, await getPort());
        const host: Host = { engine: 'webkit', server, session: null };
        await use(host);
        await host.session?.close();
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  visitor: async ({ host, userAgent, baseURL }, use) => {
    const proxy = await JourneyProxy.start(String(baseURL));
    let engine: Engine;
    if (host.engine === 'chromium') engine = await openPlaywright(host.browser, userAgent);
    else if (host.engine === 'firefox') engine = await openFirefox(host.browser);
    else {
      host.session ??= await openWebKit(host.server, MINIBROWSER);
      engine = host.session;
      await engine.reset(proxy.origin).catch(async () => {
        // A journey that failed can leave the session unusable: start a new one.
        await host.session?.close();
        host.session = await openWebKit(host.server, MINIBROWSER);
        engine = host.session;
        await engine.reset(proxy.origin);
      });
    }
    await use(new Visitor(engine, proxy));
    if (host.engine !== 'webkit') await engine.close();
    await proxy.close();
  },
});
