// Toast memory benchmark: figures, not assertions (except that nothing may be left behind).
//
// Creates and dismisses 10,000 toasts in Chromium, in rounds of five (the most shown at once): each round adds
// five through the app's own `toast` API, lets React render them, dismisses them, and moves Playwright's fake
// clock past the 200 ms removal delay. Reports live toast actors, DOM nodes and JS heap before and after, each
// after forced garbage collection (CDP HeapProfiler.collectGarbage, Memory.getDOMCounters, Runtime.getHeapUsage).
//
// It runs against the Vite dev server so it can `import()` the very module the app uses (src/platform/toast.ts);
// nothing is put on `window`. Dev builds of React are heavier than production ones: compare before with after.
// Usage: node scripts/bench/bench-toasts.mjs [count]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import getPort from 'get-port';
import { createServer as createViteServer } from 'vite';
import { DESKTOP_CHROME_UA, requireChromium } from '../ci/find-chromium.mjs';

const TOTAL = Number(process.argv[2]) || 10_000;
const PER_ROUND = 5;
const WARM_UP = 500;
const REMOVE_DELAY_MS = 200;
const UA = DESKTOP_CHROME_UA;

const executablePath = requireChromium();

const port = await getPort();
const dataDir = mkdtempSync(join(tmpdir(), 'campaign-web-bench-'));
const base = `http://127.0.0.1:${port}`;
process.env.DATA_DIR = dataDir;
// No file watching and no HMR: other people's edits must not reload the page in the middle of a measurement.
const server = await createViteServer({
  logLevel: 'error',
  server: { host: '127.0.0.1', port, strictPort: true, watch: null, hmr: false },
});
await server.listen();

let browser;
try {
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ userAgent: UA });
  const cdp = await page.context().newCDPSession(page);
  page.on('pageerror', (error) => console.error('[page error]', error.message));

  const start = Date.UTC(2030, 0, 1);
  await page.clock.install({ time: start });
  await page.goto(`${base}/campaign/components/info`);
  await page.getByRole('heading', { name: 'Component gallery' }).waitFor();
  await page.clock.pauseAt(start + 60_000);
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame())
      throw new Error('The page navigated during the benchmark: figures are void.');
  });

  const measure = async () => {
    for (let i = 0; i < 3; i += 1) await cdp.send('HeapProfiler.collectGarbage');
    const { nodes, jsEventListeners } = await cdp.send('Memory.getDOMCounters');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const page_ = await page.evaluate(async () => {
      const { toastDiagnostics } = await import('/src/platform/toast.ts');
      return {
        diagnostics: toastDiagnostics(),
        toastElements: document.querySelectorAll('[data-scope="toast"][data-part="root"]').length,
        documentNodes: document.getElementsByTagName('*').length,
      };
    });
    return { nodes, jsEventListeners, heapBytes: usedSize, ...page_ };
  };

  /** Adds and dismisses `total` toasts, five a round; returns the most rendered at once. */
  const cycle = async (total) => {
    let maxShown = 0;
    for (let made = 0; made < total; made += PER_ROUND) {
      const shown = await page.evaluate(async (count) => {
        const { toast } = await import('/src/platform/toast.ts');
        const ids = [];
        for (let i = 0; i < count; i += 1) ids.push(toast.add({ title: `Toast ${i}`, description: 'bench' }));
        // Let React commit (a MessageChannel task: Playwright's clock fakes timers and animation frames).
        await new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = resolve;
          channel.port2.postMessage(0);
        });
        const rendered = document.querySelectorAll('[data-scope="toast"][data-part="root"]').length;
        for (const id of ids) toast.dismiss(id);
        return rendered;
      }, PER_ROUND);
      maxShown = Math.max(maxShown, shown);
      await page.clock.runFor(REMOVE_DELAY_MS);
    }
    await page.waitForFunction(
      () => document.querySelectorAll('[data-scope="toast"][data-part="root"]').length === 0,
    );
    return maxShown;
  };

  // Warm up (chunks, styles, JIT), so the baseline is the app with a toaster that has already worked.
  await cycle(WARM_UP);
  const before = await measure();
  const began = performance.now();
  const maxShown = await cycle(TOTAL);
  const seconds = (performance.now() - began) / 1000;
  const after = await measure();

  const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  const row = (label, a, b) => `${label.padEnd(34)} ${String(a).padStart(12)} ${String(b).padStart(12)}`;
  console.log(`\n== Toast memory: ${TOTAL.toLocaleString('en')} toasts created and dismissed ==`);
  console.log(
    `rounds of ${PER_ROUND}, at most ${maxShown} rendered at once, ${seconds.toFixed(1)} s wall, after a warm-up of ${WARM_UP}`,
  );
  console.log(row('', 'before', 'after (GC)'));
  console.log(
    row('live toast actors', before.diagnostics?.liveToastActors, after.diagnostics?.liveToastActors),
  );
  console.log(
    row(
      'toasts shown / queued',
      `${before.diagnostics?.shown}/${before.diagnostics?.queued}`,
      `${after.diagnostics?.shown}/${after.diagnostics?.queued}`,
    ),
  );
  console.log(row('toast elements in the DOM', before.toastElements, after.toastElements));
  console.log(row('elements in the document', before.documentNodes, after.documentNodes));
  console.log(row('DOM nodes (renderer, CDP)', before.nodes, after.nodes));
  console.log(row('JS event listeners (CDP)', before.jsEventListeners, after.jsEventListeners));
  console.log(row('JS heap used', mb(before.heapBytes), mb(after.heapBytes)));
  if (after.diagnostics?.liveToastActors !== 0 || after.toastElements !== 0) {
    console.error('Toast actors or elements were left behind.');
    process.exitCode = 1;
  }
} finally {
  await browser?.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
