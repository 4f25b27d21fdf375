// Static files while images render: figures, not assertions. The production server (dist-server/main.mjs
// on dist/, a fresh data folder, so every image variant is new) answers the entry script, with its brotli body,
// one request at a time: first idle, then while 12 renders of new image variants are in flight (48 variants, 12
// requests at a time). Run twice: with the thread pool the server's entry sets (16 threads; renders on half the
// cores, server/routes/images.ts renderSlots) and with Node's default of 4 (UV_THREADPOOL_SIZE=4). The bar: the
// median under renders stays within 3x of idle.
// Usage: node scripts/bench/bench-files-under-renders.mjs   (after `npm run build`); BENCH_FILE_RUNS (default 60).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import { median } from './shared.mjs';

const RUNS = Number(process.env.BENCH_FILE_RUNS) || 60;
const IN_FLIGHT = 12;
const VARIANTS = 48;

const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'));
const entry = Object.values(manifest).find((chunk) => chunk.isEntry).file;

async function startServer(threads) {
  const port = await getPort();
  const dataDir = mkdtempSync(join(tmpdir(), 'campaign-web-bench-files-'));
  const server = spawn(process.execPath, ['dist-server/main.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      UV_THREADPOOL_SIZE: threads === null ? '' : String(threads),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i += 1) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    async stop() {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Milliseconds for one whole answer of the entry script, as a browser asks for it. */
async function timeEntry(base) {
  const started = performance.now();
  const response = await fetch(`${base}/${entry}`, { headers: { 'accept-encoding': 'br' } });
  await response.arrayBuffer();
  return performance.now() - started;
}

async function sample(base, runs) {
  const times = [];
  for (let run = 0; run < runs; run += 1) times.push(await timeEntry(base));
  return times;
}

/** Asks for VARIANTS new variants, IN_FLIGHT at a time, until stopped; resolves when the last has answered. */
function renderLoad(base) {
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped) {
      const n = next++;
      const width = 200 + (n % VARIANTS) * 17 + Math.floor(n / VARIANTS);
      const image = `campaigns/campaign-${(n % 6) + 1}.jpg`;
      await fetch(`${base}/_ipx/w_${width}&f_avif&q_60/${image}`).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
    }
  };
  const workers = Array.from({ length: IN_FLIGHT }, worker);
  return {
    async stop() {
      stopped = true;
      await Promise.all(workers);
    },
  };
}

const rows = [];
for (const [label, threads] of [
  [`npm start's pool (16 threads), renders on half of ${availableParallelism()} cores`, null],
  ["Node's default pool (UV_THREADPOOL_SIZE=4)", 4],
]) {
  const server = await startServer(threads);
  try {
    await sample(server.base, 10);
    const idle = median(await sample(server.base, RUNS));
    const load = renderLoad(server.base);
    // Let the first renders take their threads.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const busy = await sample(server.base, RUNS);
    await load.stop();
    rows.push({ label, idle, busy: median(busy), max: Math.max(...busy) });
  } finally {
    await server.stop();
  }
}

console.log(
  `\n== The entry script (${entry}, brotli) while ${IN_FLIGHT} image renders are in flight; medians of ${RUNS}; load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')} ==`,
);
console.log(
  `${'server'.padEnd(56)} ${'idle ms'.padStart(9)} ${'renders ms'.padStart(11)} ${'ratio'.padStart(7)} ${'max ms'.padStart(8)}`,
);
for (const row of rows)
  console.log(
    `${row.label.padEnd(56)} ${row.idle.toFixed(1).padStart(9)} ${row.busy.toFixed(1).padStart(11)} ${(row.busy / row.idle).toFixed(2).padStart(7)} ${row.max.toFixed(0).padStart(8)}`,
  );
