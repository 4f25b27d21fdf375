// First-paint benchmark of the production build: figures, not assertions. Two parts (`BENCH_PAINT`, a regular
// expression over `phone` and `shell`, keeps one of them; `BENCH_PAINT_PATHS`, comma-separated, the phone's pages;
// `BENCH_PAINT_CPU` another CPU slowdown for the phone):
//
// phone: a phone's first load, really throttled (not simulated): Lighthouse's mobile profile in Chromium through
//   Playwright, 412×823 at device pixel ratio 1.75, 4× CPU and slow 4G as DevTools applies it (562.5 ms per
//   request, 1.47 Mbit/s down, 675 kbit/s up). For `/`, `/campaign/1` and the gallery of this app and the reference
//   build (and `BENCH_BASELINE`, a saved earlier `dist/`), interleaved, N cold loads each, medians of:
//    - the first contentful paint and the largest, and where the largest paint's time goes, as web-vitals splits it:
//      time to first byte, load delay (first byte -> the LCP image's request), load time (its request -> its last
//      byte) and render delay (its last byte -> its paint; for a text LCP, first byte -> paint);
//    - the layout shifts of the load (CLS: the sum until the app has started plus 1 s);
//    - when the app's first script was requested and when the app owned the page (this app: React's keys on the
//      main heading; the reference, a client-rendered SPA: its heading in the DOM).
// shell: for `/` and `/campaign/1`, N cold loads each (a fresh browser context: empty cache, no service worker)
//   of the prerendered page, as `vite preview` serves it, and the same path as an SPA would serve it: the
//   unrendered shell (dist/200.html) for the document request, interleaved. Medians of FCP (for the shell that
//   is the "Loading campaign-web…" line), the main heading's paint (Element Timing on `main h1`, tagged by an
//   init script as soon as the element exists, whether the parser or React made it) and LCP.
// Usage: node scripts/bench/bench-paint.mjs [loads per case, default 10 (shell) and 7 (phone)]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import getPort from 'get-port';
import { DESKTOP_CHROME_UA, requireChromium } from '../ci/find-chromium.mjs';
import { median, serveSideBySide } from './shared.mjs';

const ONLY = new RegExp(process.env.BENCH_PAINT ?? '');
const LOADS = Math.max(10, Number(process.argv[2]) || 10);
const PHONE_LOADS = Math.max(3, Number(process.argv[2]) || 7);
const PATHS = ['/', '/campaign/1'];
const PHONE_PATHS = process.env.BENCH_PAINT_PATHS?.split(',') ?? [
  '/',
  '/campaign/1',
  '/campaign/components/info',
];
const UA = DESKTOP_CHROME_UA;
const REFERENCE = process.env.REFERENCE_BUILD ?? '../shared/reference/reference-build';
const referenceRoot = [REFERENCE, '/work/shared/reference/reference-build'].find((dir) =>
  existsSync(join(dir, '200.html')),
);

/** Lighthouse's mobile profile (its `moto g power` screen and DevTools' slow 4G, as `--throttling-method=devtools`). */
export const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
  cpu: Number(process.env.BENCH_PAINT_CPU) || 4,
  network: {
    offline: false,
    latency: 562.5,
    downloadThroughput: (1474.56 * 1024) / 8,
    uploadThroughput: (675 * 1024) / 8,
  },
};

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
  for (let i = 0; i < 300; i += 1) {
    try {
      if ((await fetch(`${base}/api/session`)).ok) return;
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

/**
 * Runs before any page script of a phone load: the last LCP candidate (time, element, resource URL), the layout
 * shifts, and when the page was owned by its app (see the header).
 */
function instrumentPhone() {
  const bench = { lcp: null, shifts: [], ownedAt: Number.NaN };
  window.__phone = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      bench.lcp = { time: entry.startTime, url: entry.url, element: entry.element?.tagName ?? '' };
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (!entry.hadRecentInput) bench.shifts.push({ time: entry.startTime, value: entry.value });
  }).observe({ type: 'layout-shift', buffered: true });
  const owned = () => {
    const heading = document.querySelector('main h1') ?? document.querySelector('h1:not([hidden] h1)');
    const react = heading && Object.keys(heading).some((key) => key.startsWith('__react'));
    const prerendered = document.getElementById('__CAMPAIGN_PAYLOAD__') !== null;
    if (react || (heading && !prerendered && !document.getElementById('boot-status'))) {
      bench.ownedAt = performance.now();
      return;
    }
    requestAnimationFrame(owned);
  };
  requestAnimationFrame(owned);
}

/** One cold load of `url` on the phone profile; the figures of the header. */
async function phoneLoad(browser, url) {
  const { cpu, network, ...device } = PHONE;
  const context = await browser.newContext(device);
  try {
    const page = await context.newPage();
    await page.addInitScript(instrumentPhone);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', network);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
    await page.goto(url, { timeout: 60_000 });
    await page.waitForFunction(() => Number.isFinite(window.__phone.ownedAt), null, { timeout: 60_000 });
    await page.waitForTimeout(1000);
    return await page.evaluate(() => {
      const bench = window.__phone;
      const [navigation] = performance.getEntriesByType('navigation');
      const resources = performance.getEntriesByType('resource');
      const ttfb = navigation.responseStart;
      const lcp = bench.lcp?.time ?? Number.NaN;
      const image = bench.lcp?.url ? resources.find((entry) => entry.name === bench.lcp.url) : undefined;
      const requested = image ? Math.max(ttfb, image.requestStart || image.startTime) : ttfb;
      const arrived = image ? Math.max(requested, image.responseEnd) : ttfb;
      const firstScript = resources.find(
        (entry) => entry.initiatorType !== 'img' && /\.js$/.test(entry.name),
      );
      return {
        ttfb,
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        lcp,
        loadDelay: requested - ttfb,
        loadTime: arrived - requested,
        renderDelay: lcp - arrived,
        lcpElement: bench.lcp ? `${bench.lcp.element}${image ? ` ${new URL(image.name).pathname}` : ''}` : '',
        cls: bench.shifts.filter((s) => s.time < bench.ownedAt + 1000).reduce((sum, s) => sum + s.value, 0),
        scriptsAt: firstScript?.startTime ?? Number.NaN,
        ownedAt: bench.ownedAt,
      };
    });
  } finally {
    await context.close();
  }
}

const ms = (value) => `${Math.round(value)} ms`.padStart(8);

async function phone(browser) {
  if (!referenceRoot) throw new Error(`No reference build at ${REFERENCE} (set REFERENCE_BUILD).`);
  const servers = [];
  try {
    const apps = await serveSideBySide(port, referenceRoot, servers);
    const results = new Map(apps.map((app) => [app, Object.fromEntries(PHONE_PATHS.map((p) => [p, []]))]));
    const load = loadavg().map((n) => n.toFixed(1));
    // One warm-up load of each page (the image optimiser's first render of each size, disk caches), not counted.
    for (const app of apps) for (const path of PHONE_PATHS) await phoneLoad(browser, `${app.url}${path}`);
    for (let run = 0; run < PHONE_LOADS; run += 1) {
      for (const path of PHONE_PATHS)
        for (const app of run % 2 ? [...apps].reverse() : apps)
          results.get(app)[path].push(await phoneLoad(browser, `${app.url}${path}`));
      process.stdout.write(`\rphone load ${run + 1}/${PHONE_LOADS}`);
    }
    console.log(
      `\n\n== A phone's first load: ${PHONE.cpu}x CPU, slow 4G, 412x823 @1.75 (really throttled), medians of ${PHONE_LOADS}; load average ${load.join(' ')} at start ==`,
    );
    const columns = [
      ['TTFB', 'ttfb'],
      ['FCP', 'fcp'],
      ['LCP', 'lcp'],
      ['delay', 'loadDelay'],
      ['load', 'loadTime'],
      ['render', 'renderDelay'],
      ['scripts', 'scriptsAt'],
      ['owned', 'ownedAt'],
    ];
    console.log(
      `${'page'.padEnd(40)}${columns.map(([label]) => label.padStart(8)).join(' ')} ${'CLS'.padStart(7)}  LCP element`,
    );
    for (const path of PHONE_PATHS) {
      for (const app of apps) {
        const runs = results.get(app)[path];
        const pick = (key) => median(runs.map((run) => run[key]));
        console.log(
          `${`${path} (${app.name})`.padEnd(40)}${columns.map(([, key]) => ms(pick(key))).join(' ')} ${pick('cls').toFixed(4).padStart(7)}  ${runs[0]?.lcpElement ?? ''}`,
        );
      }
      const [ours, reference] = apps.map((app) => median(results.get(app)[path].map((run) => run.lcp)));
      console.log(
        `${`${path} LCP ratio this app / reference`.padEnd(40)}${(ours / reference).toFixed(2).padStart(8)}`,
      );
    }
    console.log(
      'delay, load, render: the LCP split as web-vitals makes it (first byte -> image requested -> its last byte -> painted);',
    );
    console.log(
      'scripts: the first script requested; owned: React owns the main heading (the reference: its heading rendered).',
    );
  } finally {
    for (const s of servers) s.close();
  }
}

async function shellVersusPrerendered(browser) {
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
}

let browser;
try {
  await waitForServer();
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  if (ONLY.test('phone')) await phone(browser);
  if (ONLY.test('shell')) await shellVersusPrerendered(browser);
} finally {
  await browser?.close();
  try {
    process.kill(-server.pid);
  } catch {}
  rmSync(dataDir, { recursive: true, force: true });
}
