// First-paint benchmark of the production build: figures, not assertions.
//
// For `/` and `/campaign/1`, N cold loads each (a fresh browser context: empty cache, no service worker) of
//  - the prerendered page, as `vite preview` serves it, and
//  - the same path as an SPA would serve it: the unrendered shell (dist/200.html) for the document request,
// interleaved so that machine load hits both alike. Reported as medians:
//  - FCP: the browser's first contentful paint (for the shell that is the "Loading campaign-web…" line);
//  - real content: when the page's main heading was painted (Element Timing on `main h1`, tagged by an
//    init script as soon as the element exists, whether the parser or React made it);
//  - LCP: the last largest-contentful-paint candidate before the page settled.
// Usage: node scripts/bench/bench-paint.mjs [loads per case, default 10]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import getPort from 'get-port';
import { DESKTOP_CHROME_UA, requireChromium } from '../ci/find-chromium.mjs';

const LOADS = Math.max(10, Number(process.argv[2]) || 10);
const PATHS = ['/', '/campaign/1'];
const UA = DESKTOP_CHROME_UA;

const executablePath = requireChromium();
if (!existsSync('dist/200.html')) {
  console.error('No prerendered build in dist/: run `npm run build` first.');
  process.exit(1);
}
const shell = readFileSync('dist/200.html', 'utf8');

const port = await getPort();
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'campaign-web-bench-paint-'));
const server = spawn(
  'npx',
  ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
  {
    env: { ...process.env, DATA_DIR: dataDir, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    stdio: 'ignore',
    detached: true,
  },
);

async function waitForServer() {
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(`${base}/_app/builds/latest.json`)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('vite preview did not start');
}

/** Runs before any page script: tags `main h1` for Element Timing the moment it exists, records LCP. */
function instrument() {
  const w = window;
  w.__lcp = 0;
  w.__heading = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__lcp = entry.renderTime || entry.loadTime || entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.identifier === 'main-heading' && !w.__heading) w.__heading = entry.renderTime;
  }).observe({ type: 'element', buffered: true });
  const tag = () => {
    const heading = document.querySelector('main h1');
    if (heading && !heading.hasAttribute('elementtiming'))
      heading.setAttribute('elementtiming', 'main-heading');
  };
  new MutationObserver(tag).observe(document, { childList: true, subtree: true });
}

async function measure(browser, path, variant) {
  const context = await browser.newContext({ userAgent: UA });
  const page = await context.newPage();
  await page.addInitScript(instrument);
  if (variant === 'spa shell') {
    await page.route(`${base}${path}`, (route) =>
      route.request().resourceType() === 'document'
        ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: shell })
        : route.continue(),
    );
  }
  await page.goto(`${base}${path}`);
  await page.waitForFunction(() => window.__heading > 0, null, { timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  const figures = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    heading: window.__heading,
    lcp: window.__lcp,
  }));
  await context.close();
  return figures;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value) => `${Math.round(value)} ms`.padStart(8);

let browser;
try {
  await waitForServer();
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  console.log(`\n== First paint, median of ${LOADS} cold loads (vite preview, loopback, no throttling) ==`);
  console.log(`${'page'.padEnd(34)} ${'FCP'.padStart(8)} ${'content'.padStart(8)} ${'LCP'.padStart(8)}`);
  for (const path of PATHS) {
    const results = { prerendered: [], 'spa shell': [] };
    // One warm-up load per variant (server caches, disk), not counted.
    for (const variant of Object.keys(results)) await measure(browser, path, variant);
    for (let i = 0; i < LOADS; i += 1)
      for (const variant of Object.keys(results))
        results[variant].push(await measure(browser, path, variant));
    for (const [variant, runs] of Object.entries(results)) {
      const pick = (key) => median(runs.map((run) => run[key]));
      console.log(
        `${`${path} (${variant})`.padEnd(34)} ${ms(pick('fcp'))} ${ms(pick('heading'))} ${ms(pick('lcp'))}`,
      );
    }
  }
  console.log("content = the main heading painted (Element Timing); the shell's FCP is its loading line.");
} finally {
  await browser?.close();
  try {
    process.kill(-server.pid);
  } catch {}
  rmSync(dataDir, { recursive: true, force: true });
}
