// Chrome trace of one interaction (a profiling aid, not a bench): `node scripts/bench/trace-interaction.mjs MODE [RATE]`
// after `npm run build`, MODE one of hover, cold, back, dark, toast, close, login, hydrate; RATE the CPU slowdown
// (default 4). Prints the interaction's Event Timing entries, then every main-thread task from the input on with
// its duration and what ran in it (event dispatches, script calls with their minified names, style, layout,
// paint), and writes the whole trace to $TMPDIR/trace-interaction/MODE.trace.json for the DevTools performance panel.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { findChromium } from '../ci/find-chromium.mjs';
import { appOwnsPage, instrumentInteractions, pointAt, press, waitFor } from './shared.mjs';

const mode = process.argv[2] ?? 'hover';
const rate = Number(process.argv[3] ?? 4);
const port = 4700 + Math.floor(Math.random() * 200);
const dataDir = mkdtempSync(join(tmpdir(), 'trace-'));
const api = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
  env: { ...process.env, DATA_DIR: dataDir, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  stdio: 'ignore',
  detached: true,
});
const LINK = 'a[href^="/campaign/"]:not([href*="components"])';
try {
  await waitFor(`http://127.0.0.1:${port}/api/session`, 180_000);
  const browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(instrumentInteractions);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  const path =
    { toast: '/campaign/components/info', close: '/campaign/components/info', login: '/login' }[mode] ?? '/';
  const categories = [
    'devtools.timeline',
    'disabled-by-default-devtools.timeline',
    'disabled-by-default-devtools.timeline.frame',
    'blink.user_timing',
    'toplevel',
  ];
  if (mode === 'hydrate') await browser.startTracing(page, { categories });
  await page.goto(`http://127.0.0.1:${port}${path}`);
  await page.locator('h1:visible').first().waitFor();
  if (mode !== 'hydrate') await appOwnsPage(page);
  await page.waitForTimeout(mode === 'hydrate' ? 4000 : 1500);
  if (mode === 'hover' || mode === 'back') {
    await pointAt(page, page.locator(LINK).first());
    await page.waitForTimeout(150);
  }
  if (mode === 'back') {
    await page.locator(LINK).first().click();
    await page.waitForTimeout(1500);
  }
  if (mode === 'close') {
    await page.getByRole('button', { name: 'Show toast', exact: true }).click();
    await page.waitForTimeout(800);
  }
  if (mode === 'login') {
    await page.getByLabel('Email').fill('demo@example.com');
    await page.getByLabel('Password').fill('not-the-password');
  }
  if (mode !== 'hydrate') await browser.startTracing(page, { categories });
  await page.evaluate(() => performance.mark('act'));
  if (mode === 'hover' || mode === 'cold')
    await press(page, page.locator(LINK).first(), { move: mode === 'cold' });
  if (mode === 'back') await page.goBack();
  if (mode === 'dark')
    await press(
      page,
      page
        .getByRole('banner')
        .getByRole('radiogroup', { name: 'Color mode' })
        .locator('label', { hasText: 'Dark' }),
    );
  if (mode === 'toast') await press(page, page.getByRole('button', { name: 'Show toast', exact: true }));
  if (mode === 'close')
    await press(
      page,
      page
        .getByRole('region', { name: 'Notifications (F8)' })
        .getByRole('listitem')
        .first()
        .getByRole('button', { name: 'Close' }),
    );
  if (mode === 'login') await press(page, page.getByRole('button', { name: 'Sign in' }));
  await page.waitForTimeout(1500);
  const events = await page.evaluate(() => {
    const act = performance.getEntriesByName('act')[0].startTime;
    return window.__bench.events
      .filter((e) => e.start >= act - 50)
      .map((e) => ({ ...e, start: e.start - act }));
  });
  for (const e of events)
    console.log(
      `event ${e.name} at ${e.start.toFixed(1)} duration ${e.duration} handlers ${(e.start + e.delay).toFixed(1)}-${(e.start + e.delay + e.processing).toFixed(1)}`,
    );
  const buffer = await browser.stopTracing();
  const out = join(tmpdir(), 'trace-interaction');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${mode}.trace.json`), buffer);
  const { traceEvents } = JSON.parse(buffer.toString());
  const mark = traceEvents.find((e) => e.name === 'act');
  const main =
    traceEvents.find(
      (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === mark?.pid,
    ) ?? traceEvents.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = traceEvents.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ts !== undefined);
  const t0 = mode === 'hydrate' ? Math.min(...onMain.filter((e) => e.ph === 'X').map((e) => e.ts)) : mark.ts;
  const tasks = onMain
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.ts >= t0 - 1000 && e.dur > 300)
    .sort((a, b) => a.ts - b.ts);
  const inside = (task) =>
    onMain.filter(
      (e) => e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur && e !== task,
    );
  const interesting = new Set([
    'EventDispatch',
    'FunctionCall',
    'TimerFire',
    'FireAnimationFrame',
    'UpdateLayoutTree',
    'Layout',
    'Paint',
    'PrePaint',
    'Layerize',
    'Commit',
    'ParseHTML',
    'EvaluateScript',
    'v8.evaluateModule',
    'HitTest',
    'RunMicrotasks',
    'XHRReadyStateChange',
    'ScheduleStyleRecalculation',
    'RecalculateStyles',
    'UpdateLayerTree',
    'v8.compile',
    'MajorGC',
    'MinorGC',
    'V8.GC_SCAVENGER',
    'FireIdleCallback',
    'ResourceReceivedData',
  ]);
  for (const task of tasks) {
    const parts = inside(task).filter((e) => interesting.has(e.name) && e.dur > 200);
    const desc = parts.map((e) => {
      const d = e.args?.data ?? {};
      const what = d.type ?? d.functionName ?? (d.url ? d.url.split('/').pop() : '') ?? '';
      return `${e.name}${what ? `(${what})` : ''} ${(e.dur / 1000).toFixed(1)}`;
    });
    console.log(
      `${((task.ts - t0) / 1000).toFixed(1).padStart(8)} ${(task.dur / 1000).toFixed(1).padStart(7)} ms  ${desc.slice(0, 14).join(', ')}`,
    );
  }
  await browser.close();
} finally {
  try {
    process.kill(-api.pid);
  } catch {}
}
