// What the side-by-side benches share: one static server for both builds (gzip level 6, SPA fallback,
// optional proxying of the API), waiting for a server to answer, and medians.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import getPort from 'get-port';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.txt']);

/** A static server with an SPA fallback and gzip level 6; `proxy` forwards those path prefixes elsewhere. */
export function staticServer(root, fallback, proxy) {
  const gzipped = new Map();
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (proxy?.prefixes.some((prefix) => url.pathname.startsWith(prefix))) {
      const upstream = httpRequest(
        { host: '127.0.0.1', port: proxy.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
      return;
    }
    let path = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!path.startsWith(normalize(root))) return res.writeHead(400).end();
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!existsSync(path)) {
      if (extname(url.pathname) !== '') return res.writeHead(404).end();
      path = join(root, fallback);
    }
    const ext = extname(path);
    const headers = {
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'cache-control':
        path.includes('/assets/') || path.includes('/_nuxt/')
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
    };
    if (COMPRESSIBLE.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      // Keyed by modification time too, so a file rebuilt while the server runs is served as it is now.
      const key = `${path}\0${statSync(path).mtimeMs}`;
      if (!gzipped.has(key)) gzipped.set(key, gzipSync(readFileSync(path), { level: 6 }));
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' });
      return res.end(gzipped.get(key));
    }
    res.writeHead(200, headers);
    createReadStream(path).pipe(res);
  });
}

export const listen = (server, port) => new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));

export async function waitFor(url, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

export const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Serves this app's build (proxying its API and images to the demo API on `apiPort`) and the reference build
 * side by side, each on a free port; pushes each server onto `servers` (for the caller to close) and returns the
 * two apps as `{ name, url, ... }`, this app first. `baseline`, a saved earlier build of this app (a copy of its
 * `dist/`, from `BENCH_BASELINE`), is served third, with the same API: a change against the build before it
 * and against the reference, in one run.
 */
export async function serveSideBySide(
  apiPort,
  referenceRoot,
  servers,
  baseline = process.env.BENCH_BASELINE,
) {
  const proxy = { port: apiPort, prefixes: ['/api/', '/_ipx/'] };
  const apps = [
    { name: 'this app', root: 'dist', fallback: '200.html', proxy },
    { name: 'reference', root: referenceRoot, fallback: '200.html' },
  ];
  if (baseline) apps.push({ name: 'baseline', root: baseline, fallback: '200.html', proxy });
  for (const app of apps) {
    const port = await getPort();
    const server = staticServer(app.root, app.fallback, app.proxy);
    await listen(server, port);
    servers.push(server);
    app.url = `http://127.0.0.1:${port}`;
  }
  return apps;
}

/**
 * An init script (`page.addInitScript(instrumentInteractions)`): runs in the page before its own scripts and keeps
 * in `window.__bench` the Event Timing entries of interactions (as INP counts them: `durationThreshold: 16`),
 * long tasks, and the time from a Back step to the end of the next frame, to the page's main heading in the DOM, and
 * to that heading painted (Element Timing). Used by bench-interactions.mjs and
 * trace-interaction.mjs.
 */
export function instrumentInteractions() {
  const bench = {
    events: [],
    longTasks: [],
    popstateFrame: Number.NaN,
    backHeading: Number.NaN,
    backHeadingPaint: Number.NaN,
  };
  window.__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.interactionId)
        bench.events.push({
          name: entry.name,
          id: entry.interactionId,
          start: entry.startTime,
          duration: entry.duration,
          delay: entry.processingStart - entry.startTime,
          processing: entry.processingEnd - entry.processingStart,
        });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  // Added before any script of the page's: it runs first, when the browser dispatches the event.
  window.addEventListener('popstate', () => {
    const at = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        bench.popstateFrame = performance.now() - at;
      };
      channel.port2.postMessage(null);
    });
    // The next frame is not the page returned to when an app draws it later (the reference's router resolves
    // the step in tasks after it): its main heading in the DOM, and painted, say when the visitor sees it.
    const heading = () => document.querySelector('main h1') ?? document.querySelector('h1');
    const before = heading();
    const beforeText = before?.textContent;
    const seen = (now) => now !== null && (now !== before || now.textContent !== beforeText);
    const mark = (now) => {
      bench.backHeading = performance.now() - at;
      now.setAttribute('elementtiming', 'bench-back');
    };
    new PerformanceObserver((list, observer) => {
      for (const entry of list.getEntries())
        if (entry.identifier === 'bench-back') {
          bench.backHeadingPaint = (entry.renderTime || entry.loadTime) - at;
          observer.disconnect();
        }
    }).observe({ type: 'element' });
    const observer = new MutationObserver(() => {
      const now = heading();
      if (!seen(now)) return;
      observer.disconnect();
      mark(now);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * Moves the mouse onto the middle of `locator`'s element (unless `hover` was done before) and presses and releases
 * it, as a person's mouse would: raw input, nothing else. Playwright's `locator.click()` also puts a hit-target
 * check into the page for the click's own pointer events (a listener calling `elementsFromPoint`, which forces
 * style and layout): about 20 ms of every measured pointerdown at 4x CPU that no visitor's browser runs.
 */
export async function press(page, locator, { move = true } = {}) {
  if (move) await pointAt(page, locator);
  await page.mouse.down();
  await page.mouse.up();
}

/** Moves the mouse onto the middle of `locator`'s element (scrolled into view first), as a hover. */
export async function pointAt(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  if (!box) throw new Error('press: the element has no box (hidden or detached)');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * Waits until the page's app has taken it over: on a page this app prerendered, until React owns its main
 * heading (its scripts start only after the first paint and the hero image, build/firstPaint.ts); anywhere
 * else at once (a client-rendered page, the reference's, is the app's from its first heading).
 */
export async function appOwnsPage(page, timeout = 30_000) {
  await page.waitForFunction(
    () => {
      if (!document.getElementById('__CAMPAIGN_PAYLOAD__')) return true;
      const heading = document.querySelector('main h1');
      return heading !== null && Object.keys(heading).some((key) => key.startsWith('__react'));
    },
    null,
    { timeout },
  );
}
