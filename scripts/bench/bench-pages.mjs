// Pages rendered on request (server/render/), on PostgreSQL with 10,000 live campaigns: p50 and p95 latency at
// 50 concurrent clients for `/` and a campaign page, with a warm cache (the same page every request), with a cold
// cache (a page not rendered yet every request: the landing page's later pages `/?after=…`, and 10,000 different
// campaigns), and the same HTML served as a static file by the same server (its build-file path, from a copy of
// dist/ with the two pages added). Needs TEST_DATABASE_URL (scripts/ci/with-postgres.sh) and a build.
//   scripts/ci/with-postgres.sh node scripts/bench/bench-pages.mjs
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import pg from 'pg';

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.log(
    '\n== Pages rendered on request ==\nskipped: no TEST_DATABASE_URL (run under scripts/ci/with-postgres.sh)',
  );
  process.exit(0);
}
const CAMPAIGNS = 10_000;
const CLIENTS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS) || 5;

const work = mkdtempSync(path.join(tmpdir(), 'campaign-web-bench-pages-'));
const dist = path.join(work, 'dist');
cpSync('dist', dist, { recursive: true });

let child;
async function start(port) {
  child = spawn(process.execPath, ['dist-server/main.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DIST_DIR: dist,
      DATA_DIR: path.join(work, 'data'),
      DATABASE_URL: url,
      DEMO_DATA: '1',
      LOG_LEVEL: 'error',
      // The bench's 50 clients come from one address.
      API_REQUESTS_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
}
async function stop() {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
function get(port, pathname) {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: pathname, agent, headers: { accept: 'text/html' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode));
      },
    );
    request.on('error', reject);
  });
}

/** `CLIENTS` loops for `SECONDS`, each asking `next()`'s path; latencies in ms. */
async function load(port, next) {
  const latencies = [];
  let failures = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        const started = performance.now();
        const status = await get(port, next());
        if (status !== 200) failures += 1;
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), requests: latencies.length, failures };
}

const port = await getPort();
await start(port);
const sql = new pg.Client({ connectionString: url });
await sql.connect();
await sql.query(
  `insert into campaigns (id, title, summary, description, status, goal, raised, owner_id, featured, image, starts_on, ends_on)
   select 100 + n, 'Bench campaign ' || n, 'A campaign of the benchmark.', repeat('Words of its story. ', 40), 'active',
          10000, n, 'u1', false, '/campaigns/campaign-1.jpg', '2026-01-01', '2026-12-31'
   from generate_series(1, ${CAMPAIGNS}) as n on conflict do nothing`,
);
const campaignPath = `/campaign/${100 + CAMPAIGNS / 2}`;
// The two pages as the server renders them, kept as files of the build for the static comparison.
mkdirSync(path.join(dist, 'bench'), { recursive: true });
for (const [name, pathname] of [
  ['root.html', '/'],
  ['campaign.html', campaignPath],
]) {
  const response = await fetch(`http://127.0.0.1:${port}${pathname}`);
  writeFileSync(path.join(dist, 'bench', name), await response.text());
}
await stop();
await start(port);

const rows = [];
let cursor = 100 + CAMPAIGNS;
let campaign = 100;
for (const [label, page, staticFile, coldPath] of [
  ['/', '/', '/bench/root.html', () => `/?after=c${(cursor--).toString(36)}`],
  [campaignPath, campaignPath, '/bench/campaign.html', () => `/campaign/${campaign++}`],
]) {
  const file = await load(port, () => staticFile);
  await get(port, page);
  const warm = await load(port, () => page);
  const cold = await load(port, coldPath);
  rows.push({ label, file, warm, cold });
}
const health = await (await fetch(`http://127.0.0.1:${port}/healthz`)).json();
await sql.end();
await stop();
agent.destroy();
rmSync(work, { recursive: true, force: true });

const ms = (n) => `${n.toFixed(1)} ms`.padStart(9);
console.log(
  `\n== Pages rendered on request: ${CAMPAIGNS} campaigns on PostgreSQL, ${CLIENTS} clients, ${SECONDS} s each ==`,
);
console.log(
  `${'page'.padEnd(18)} ${'static p50'.padStart(10)} ${'p95'.padStart(9)} | ${'warm p50'.padStart(9)} ${'p95'.padStart(9)} ${'× static'.padStart(9)} | ${'cold p50'.padStart(9)} ${'p95'.padStart(9)} ${'renders/s'.padStart(10)}`,
);
for (const { label, file, warm, cold } of rows) {
  console.log(
    `${label.padEnd(18)} ${ms(file.p50).padStart(10)} ${ms(file.p95)} | ${ms(warm.p50)} ${ms(warm.p95)} ${`${(warm.p50 / file.p50).toFixed(2)}×`.padStart(9)} | ${ms(cold.p50)} ${ms(cold.p95)} ${(cold.requests / SECONDS).toFixed(0).padStart(10)}`,
  );
  const failed = file.failures + warm.failures + cold.failures;
  if (failed > 0)
    console.log(
      `  (${failed} answers were not 200: ${file.failures} static, ${warm.failures} warm, ${cold.failures} cold)`,
    );
}
console.log(`cache after the runs: ${JSON.stringify(health.pages?.cache)}`);
