// Screenshots of every page in light and dark, narrow and wide, for looking at what we build.
// Usage: node scripts/assets/screenshots.mjs <baseURL> [outDir]
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://localhost:4173';
const out = process.argv[3] ?? 'screenshots';
mkdirSync(out, { recursive: true });
const pages = [
  ['index', '/'],
  ['login', '/login?redirect=%2Fprofile'],
  ['campaign', '/campaign/1'],
  ['gallery', '/campaign/components/info'],
  ['not-found', '/no/such/page'],
  ['invalid', '/campaign/abc'],
  ['home', '/home', true],
  ['profile', '/profile', true],
];
/** Signs the demo account in. The API refuses writes without the page's `Origin`, which a browser's fetch sends. */
async function signIn(page) {
  const response = await page.request.post(`${base}/api/session`, {
    data: { email: 'demo@example.com', password: 'demo-password' },
    headers: { origin: new URL(base).origin },
  });
  if (!response.ok()) throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`);
}

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium' });
for (const scheme of (process.env.SCHEMES ?? 'light,dark').split(',')) {
  for (const width of (process.env.WIDTHS ?? '375,1280').split(',').map(Number)) {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      colorScheme: scheme,
      // Headless Chromium's own agent counts as a crawler, which would hide the error pages.
      userAgent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    });
    const page = await context.newPage();
    for (const [name, path, signedIn] of pages) {
      if (signedIn === undefined) await context.clearCookies();
      else await signIn(page);
      await page.goto(base + path);
      // Not 'networkidle': an error page's report is a keepalive fetch, whose end Playwright never sees.
      await page.locator('h1:visible').first().waitFor();
      await page.waitForTimeout(1500);
      await page.screenshot({ path: `${out}/${name}-${scheme}-${width}.png`, fullPage: true });
    }
    await context.close();
  }
}
await browser.close();
console.log(`screenshots in ${out}/`);
