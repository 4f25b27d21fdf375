// Side-by-side web benchmark of this app and the reference build, in one run, on one machine,
// behind one static server (gzip level 6, SPA fallback). Figures, never pass/fail. Prints, for each app:
//  - first-load JavaScript of `/` as the browser fetched it before the app had the page (its <h1> shown, and on
//    a prerendered page hydrated): raw, gzip, brotli;
//  - first contentful paint and largest contentful paint of a cold load of `/`;
//  - client navigation `/` -> first campaign: cold load, 1.5 s of looking, click; click to the new <h1>.
//    Once straight away ("cold") and once after pointing at the link for 150 ms first ("after hover");
//  - Lighthouse's mobile profile (simulated slow 4G, 4x CPU, 412x823 at 1.75) of `/`, a campaign page and the
//    gallery: performance score, FCP, LCP, total blocking time and CLS, medians of BENCH_LIGHTHOUSE_RUNS (default 3)
//    runs, each run going through every page of both apps in turn (alternating which app goes first);
// and the ratios app / reference. Runs alternate between the two apps so that load from other processes
// falls on both alike; medians of BENCH_RUNS (default 10). BENCH_ONLY=lighthouse runs Lighthouse alone;
// BENCH_BASELINE (a saved earlier dist/) adds a third column: the build before a change, in the same run.
//
// The app's API (and images) come from its own production server, proxied by the static server; the
// reference has no API.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import getPort from 'get-port';
import { findChromium } from '../ci/find-chromium.mjs';
import { appOwnsPage, median, serveSideBySide, waitFor } from './shared.mjs';

const RUNS = Number(process.env.BENCH_RUNS) || 10;
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const LIGHTHOUSE_PATHS = ['/', '/campaign/1', '/campaign/components/info'];
const ONLY = new RegExp(process.env.BENCH_ONLY ?? '');
const REFERENCE = process.env.REFERENCE_BUILD ?? '../shared/reference/reference-build';
const referenceRoot = [REFERENCE, '/work/shared/reference/reference-build'].find((dir) =>
  existsSync(join(dir, '200.html')),
);
const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** Sizes of the files behind the script URLs a page fetched, read from disk. */
function scriptBytes(root, urls) {
  const total = { raw: 0, gzip: 0, brotli: 0 };
  for (const url of new Set(urls)) {
    const bytes = readFileSync(join(root, new URL(url).pathname));
    total.raw += bytes.length;
    total.gzip += gzipSync(bytes, { level: 6 }).length;
    total.brotli += brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return total;
}

/** One cold visit: load `/`, look for 1.5 s, optionally point at the link, click, time to the new <h1>. */
async function visit(browser, app, hover) {
  const context = await browser.newContext({ userAgent: DESKTOP_UA, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__bench = { lcp: 0, lcpElement: '', shownAt: Number.NaN };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        window.__bench.lcp = entry.startTime;
        window.__bench.lcpElement = entry.element?.tagName ?? '';
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    // The moment the app has the first page: its <h1> is there (not the hidden start-up failure notice's) and,
    // on a page this app prerendered (shown before its scripts start), React owns it.
    const owned = () => {
      const heading = document.querySelector('main h1') ?? document.querySelector('h1:not([hidden] h1)');
      const prerendered = document.getElementById('__CAMPAIGN_PAYLOAD__') !== null;
      if (heading && (!prerendered || Object.keys(heading).some((key) => key.startsWith('__react'))))
        window.__bench.shownAt = performance.now();
      else requestAnimationFrame(owned);
    };
    requestAnimationFrame(owned);
  });
  await page.goto(`${app.url}/`);
  await page.locator('h1:visible').first().waitFor();
  await appOwnsPage(page);
  await page.waitForTimeout(1500);
  const { scripts, ...paints } = await page.evaluate(() => {
    // JavaScript requested before the app had the page; prefetch hints (for later pages) are not part of it.
    const prefetched = new Set([...document.querySelectorAll('link[rel=prefetch]')].map((link) => link.href));
    return {
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      lcp: window.__bench.lcp,
      lcpElement: window.__bench.lcpElement,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js') && entry.startTime < window.__bench.shownAt)
        .map((entry) => entry.name)
        .filter((name) => !prefetched.has(name)),
    };
  });
  const link = page.locator('a[href^="/campaign/"]:not([href*="components"])').first();
  if (hover) {
    await link.hover();
    await page.waitForTimeout(150);
  }
  const elapsed = page.evaluate(
    () =>
      new Promise((resolve) => {
        const before = document.querySelector('h1');
        const beforeText = before?.textContent;
        let clickedAt = 0;
        document.addEventListener('click', () => (clickedAt = performance.now()), {
          capture: true,
          once: true,
        });
        const done = () => {
          const now = document.querySelector('main h1') ?? document.querySelector('h1');
          if (clickedAt && now && (now !== before || now.textContent !== beforeText)) {
            observer.disconnect();
            resolve(performance.now() - clickedAt);
          }
        };
        const observer = new MutationObserver(done);
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      }),
  );
  await link.click();
  const navigation = await elapsed;
  await context.close();
  return { ...paints, navigation, bytes: scriptBytes(app.root, scripts) };
}

function runLighthouse(url, chrome) {
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      [
        'lighthouse',
        url,
        '--only-categories=performance',
        '--form-factor=mobile',
        '--output=json',
        '--output-path=stdout',
        '--quiet',
        '--chrome-flags=--headless=new --no-sandbox',
      ],
      { env: { ...process.env, CHROME_PATH: chrome }, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('close', () => {
      try {
        const report = JSON.parse(out);
        resolve({
          score: Math.round(report.categories.performance.score * 100),
          fcp: report.audits['first-contentful-paint'].numericValue,
          lcp: report.audits['largest-contentful-paint'].numericValue,
          tbt: report.audits['total-blocking-time'].numericValue,
          cls: report.audits['cumulative-layout-shift'].numericValue,
          // Lantern estimates from the observed load: its own first paint is its cut-off, so it is worth seeing.
          observedLcp: report.audits.metrics?.details?.items?.[0]?.observedLargestContentfulPaint,
        });
      } catch {
        resolve(null);
      }
    });
  });
}

async function main() {
  if (!referenceRoot) throw new Error(`No reference build at ${REFERENCE} (set REFERENCE_BUILD).`);
  if (!existsSync('dist/.vite/manifest.json'))
    throw new Error('No build in dist/: run `npm run build` first.');
  const chrome = findChromium();
  if (!chrome) throw new Error('No Chromium (set CHROME_PATH).');
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-web-'));
  const apiPort = await getPort();
  const api = spawn(
    'npx',
    ['vite', 'preview', '--host', '127.0.0.1', '--port', String(apiPort), '--strictPort'],
    {
      env: { ...process.env, DATA_DIR: dataDir, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
      stdio: 'ignore',
      detached: true,
    },
  );
  const servers = [];
  try {
    // The demo API migrates its database first: slow on a busy machine.
    await waitFor(`http://127.0.0.1:${apiPort}/api/session`, 180_000);
    const apps = await serveSideBySide(apiPort, referenceRoot, servers);
    for (const app of apps) {
      app.runs = { cold: [], hover: [] };
    }
    const browser = await chromium.launch({ executablePath: chrome });
    const cold = ONLY.test('cold');
    for (let run = 0; run < (cold ? RUNS : 0); run += 1) {
      for (const hover of [false, true]) {
        for (const app of run % 2 ? [...apps].reverse() : apps) {
          app.runs[hover ? 'hover' : 'cold'].push(await visit(browser, app, hover));
        }
      }
      process.stdout.write(`\rrun ${run + 1}/${RUNS}`);
    }
    // One load of each page at the phone's size before Lighthouse, not counted: the image optimiser renders each
    // size the first time it is asked for it, and Lighthouse's first run would wait for that render.
    for (const app of apps) {
      for (const path of LIGHTHOUSE_PATHS) {
        const context = await browser.newContext({
          viewport: { width: 412, height: 823 },
          deviceScaleFactor: 1.75,
          isMobile: true,
        });
        const page = await context.newPage();
        await page.goto(`${app.url}${path}`, { waitUntil: 'networkidle' });
        await context.close();
      }
    }
    await browser.close();
    process.stdout.write('\n');

    const lighthouse =
      ONLY.test('lighthouse') && LIGHTHOUSE_RUNS > 0 && existsSync('node_modules/lighthouse/package.json');
    const load = loadavg().map((n) => n.toFixed(1));
    if (lighthouse) {
      for (const app of apps) app.lighthouse = Object.fromEntries(LIGHTHOUSE_PATHS.map((path) => [path, []]));
      for (let run = 0; run < LIGHTHOUSE_RUNS; run += 1) {
        for (const path of LIGHTHOUSE_PATHS) {
          for (const app of run % 2 ? [...apps].reverse() : apps)
            app.lighthouse[path].push(await runLighthouse(`${app.url}${path}`, chrome));
        }
        process.stdout.write(`\rLighthouse run ${run + 1}/${LIGHTHOUSE_RUNS}`);
      }
      process.stdout.write('\n');
    }

    const [ours, reference, baseline] = apps;
    const figure = (app, pick) => median(app.runs.cold.map(pick));
    const rows = cold
      ? [
          ['first-load JS of / raw (kB)', (app) => figure(app, (r) => r.bytes.raw) / 1000],
          ['first-load JS of / gzip (kB)', (app) => figure(app, (r) => r.bytes.gzip) / 1000],
          ['first-load JS of / brotli (kB)', (app) => figure(app, (r) => r.bytes.brotli) / 1000],
          ['first contentful paint of / (ms)', (app) => figure(app, (r) => r.fcp)],
          ['largest contentful paint of / (ms)', (app) => figure(app, (r) => r.lcp)],
          ['navigation / -> campaign, cold click (ms)', (app) => figure(app, (r) => r.navigation)],
          ['navigation after 150 ms hover (ms)', (app) => median(app.runs.hover.map((r) => r.navigation))],
        ]
      : [];
    if (lighthouse) {
      for (const path of LIGHTHOUSE_PATHS) {
        const lh = (key) => (app) => median(app.lighthouse[path].map((r) => r?.[key]));
        rows.push([`Lighthouse mobile score ${path}`, lh('score')]);
        rows.push([`Lighthouse FCP ${path} (ms)`, lh('fcp')]);
        rows.push([`Lighthouse LCP ${path} (ms)`, lh('lcp')]);
        rows.push([`Lighthouse TBT ${path} (ms)`, lh('tbt')]);
        rows.push([`Lighthouse CLS ${path}`, lh('cls')]);
        rows.push([`  its observed (unthrottled) LCP ${path} (ms)`, lh('observedLcp')]);
      }
    }
    console.log(
      `\n== This app vs the reference build (${cold ? `${RUNS} interleaved cold runs` : 'Lighthouse only'}${lighthouse ? `, Lighthouse ${LIGHTHOUSE_RUNS} runs` : ''}, medians; load average ${load.join(' ')} before Lighthouse) ==`,
    );
    const extra = baseline ? ` ${'baseline'.padStart(10)} ${'/ baseline'.padStart(10)}` : '';
    console.log(
      `${'figure'.padEnd(48)} ${'this app'.padStart(10)} ${'reference'.padStart(10)} ${'ratio'.padStart(7)}${extra}`,
    );
    const number = (value) => (Math.abs(value) < 1 && value !== 0 ? value.toFixed(4) : value.toFixed(1));
    for (const [label, pick] of rows) {
      const a = pick(ours);
      const b = pick(reference);
      const c = baseline ? pick(baseline) : undefined;
      console.log(
        `${label.padEnd(48)} ${number(a).padStart(10)} ${number(b).padStart(10)} ${(a / b).toFixed(2).padStart(7)}${
          c === undefined ? '' : ` ${number(c).padStart(10)} ${(a / c).toFixed(2).padStart(10)}`
        }`,
      );
    }
    if (cold)
      console.log(
        `LCP element of /: this app ${ours.runs.cold[0].lcpElement}, reference ${reference.runs.cold[0].lcpElement}`,
      );
    if (!lighthouse) console.log('(Lighthouse not installed: `npm ci` installs it as a dev dependency.)');
  } finally {
    for (const server of servers) server.close();
    try {
      process.kill(-api.pid);
    } catch {}
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
