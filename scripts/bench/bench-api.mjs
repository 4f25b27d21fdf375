// API benchmark: throughput and latency of the demo API (api/main.ts) on loopback with
// autocannon, for the campaign list, one campaign and a sign-in, on PGlite and, when
// TEST_DATABASE_URL names a PostgreSQL server (scripts/ci/with-postgres.sh sets one up), on PostgreSQL.
// Figures, never pass/fail. Bounded: BENCH_API_SECONDS (default 5) per endpoint and backend.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import getPort from 'get-port';
import pg from 'pg';

const seconds = Number(process.env.BENCH_API_SECONDS) || 5;

async function startServer(env) {
  const port = await getPort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`API did not start in 120 s:\n${output}`)), 120_000);
    child.stdout.on('data', () => {
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`API exited (${code}):\n${output}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { base: `http://127.0.0.1:${port}`, stop };
}

async function measure(base, name, options) {
  const result = await autocannon({ url: `${base}${options.path}`, duration: seconds, ...options });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
  };
}

async function benchBackend(label, env) {
  const server = await startServer(env);
  try {
    const rows = [];
    rows.push(await measure(server.base, 'GET /api/campaigns', { path: '/api/campaigns', connections: 10 }));
    rows.push(
      await measure(server.base, 'GET /api/campaigns/1', { path: '/api/campaigns/1', connections: 10 }),
    );
    // A successful sign-in: one argon2id verification (19 MiB, t=2) plus a session write. The first
    // upgrades the seed's legacy hash, so warm it once.
    const signIn = {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.base },
      body: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
    };
    await fetch(`${server.base}/api/session`, signIn);
    rows.push(
      await measure(server.base, 'POST /api/session (sign-in)', {
        path: '/api/session',
        connections: 4,
        ...signIn,
      }),
    );
    return rows.map((row) => ({ backend: label, ...row }));
  } finally {
    await server.stop();
  }
}

const results = [];
const dataDir = mkdtempSync(join(tmpdir(), 'campaign-web-bench-'));
try {
  results.push(...(await benchBackend('PGlite', { DATA_DIR: dataDir })));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const adminUrl = process.env.TEST_DATABASE_URL;
if (adminUrl) {
  const name = `campaign_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    results.push(...(await benchBackend('PostgreSQL', { DATABASE_URL: url.toString() })));
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

console.log(`\n== Demo API on loopback (autocannon, ${seconds} s per row) ==`);
console.log(
  `${'backend'.padEnd(11)} ${'endpoint'.padEnd(28)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}`,
);
for (const row of results) {
  console.log(
    `${row.backend.padEnd(11)} ${row.name.padEnd(28)} ${row.rps.toFixed(0).padStart(8)} ${String(row.p50).padStart(8)} ${String(row.p99).padStart(8)} ${String(row.bad).padStart(8)}`,
  );
}
if (!adminUrl) {
  console.log(
    'PostgreSQL: SKIPPED (no TEST_DATABASE_URL; `npm run bench` sets one up when PostgreSQL is installed).',
  );
}
