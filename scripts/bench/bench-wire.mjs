// Wire bytes of the first load of `/` from the production server (dist-server/main.mjs on dist/): figures, not
// assertions. Chromium (which asks for `br`) loads `/` on a cold cache until the landing page is on screen;
// every response is counted as the network saw it (headers + encoded body, from Playwright's request sizes)
// next to its decoded size, grouped by kind. A second load shows what revalidation costs.
// Usage: node scripts/bench/bench-wire.mjs   (after `npm run build`)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import getPort from 'get-port';
import { DESKTOP_CHROME_UA, requireChromium } from '../ci/find-chromium.mjs';

const UA = DESKTOP_CHROME_UA;
const executablePath = requireChromium();

const port = await getPort();
const dataDir = mkdtempSync(join(tmpdir(), 'campaign-web-bench-wire-'));
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['dist-server/main.mjs'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function waitForServer() {
  // Up to 60 s: opening and migrating the embedded database is slow on a busy machine.
  for (let i = 0; i < 600; i += 1) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The server did not start.');
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;

async function load(page) {
  const rows = [];
  const pending = [];
  page.on('requestfinished', (request) =>
    pending.push(
      (async () => {
        const response = await request.response();
        if (!response) return;
        const sizes = await request.sizes();
        const body =
          response.status() === 304 ? 0 : (await response.body().catch(() => Buffer.alloc(0))).length;
        rows.push({
          url: new URL(request.url()).pathname,
          type: request.resourceType(),
          status: response.status(),
          encoding: response.headers()['content-encoding'] ?? '-',
          wire: sizes.responseHeadersSize + sizes.responseBodySize,
          decoded: body,
        });
      })(),
    ),
  );
  await page.goto(`${base}/`);
  await page.getByRole('heading', { level: 1, name: 'Campaigns that move neighbourhoods' }).waitFor();
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  page.removeAllListeners('requestfinished');
  return rows;
}

function report(title, rows) {
  console.log(`\n${title}`);
  console.log(
    `${'response'.padEnd(48)} ${'status'.padStart(6)} ${'enc'.padStart(5)} ${'wire'.padStart(10)} ${'decoded'.padStart(10)}`,
  );
  for (const row of rows.sort((a, b) => b.wire - a.wire)) {
    console.log(
      `${row.url.slice(0, 48).padEnd(48)} ${String(row.status).padStart(6)} ${row.encoding.padStart(5)} ${kB(row.wire).padStart(10)} ${kB(row.decoded).padStart(10)}`,
    );
  }
  const byType = {};
  for (const row of rows) {
    byType[row.type] ??= { wire: 0, decoded: 0, count: 0 };
    byType[row.type].wire += row.wire;
    byType[row.type].decoded += row.decoded;
    byType[row.type].count += 1;
  }
  for (const [type, total] of Object.entries(byType)) {
    console.log(
      `  ${`${type} (${total.count})`.padEnd(46)} ${''.padStart(12)} ${kB(total.wire).padStart(10)} ${kB(total.decoded).padStart(10)}`,
    );
  }
  const wire = rows.reduce((sum, row) => sum + row.wire, 0);
  const decoded = rows.reduce((sum, row) => sum + row.decoded, 0);
  console.log(
    `  ${'total'.padEnd(46)} ${''.padStart(12)} ${kB(wire).padStart(10)} ${kB(decoded).padStart(10)}`,
  );
}

let browser;
try {
  await waitForServer();
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({ userAgent: UA });
  const page = await context.newPage();
  console.log('\n== Wire bytes of the first load of / (production server, Chromium, Accept-Encoding: br) ==');
  report('cold cache', await load(page));
  report('second load (warm cache: immutable assets are not asked for, HTML revalidates)', await load(page));
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
