// What keeping the server's per-address limits in the database costs: each request to /api/* (and each
// new image variant) is counted by one upsert into the UNLOGGED `request_limits` table (server/plugins/
// rateLimitStore.ts) instead of a map in the process. Figures, never pass/fail; side by side in one run, rounds
// alternated, so that a loaded machine weighs on both alike (check `uptime`).
//   node --import tsx scripts/bench/bench-request-limits.mjs [seconds=5] [rounds=3]
// 1. The store's own cost: sequential counts (one round trip each), ms per count.
// 2. The production server (buildServer, logs off) answering GET /api/session (no database work of its own: the
//    count is all of it) and GET /api/campaigns (one query), 10 connections, with the limits in the database
//    against the same server with them in memory; requests per second and the ratio.
// On PGlite (a folder database, fsync on, as DATA_DIR runs it) and, with TEST_DATABASE_URL (scripts/ci/with-
// postgres.sh), on PostgreSQL.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { readApiConfig } from '../../api/config.ts';
import { openDatabase } from '../../api/database/open.ts';
import { buildServer } from '../../server/app.ts';
import { databaseStore } from '../../server/plugins/rateLimitStore.ts';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
const COUNTS = 500;
// Never reached: the requests measured are all answered.
const UNLIMITED = { apiPerMinute: 1_000_000_000, imageVariantsPerMinute: 1_000_000_000 };

/** The memory store as @fastify/rate-limit's own works: a map of windows. */
const memoryStore = class MemoryStore {
  windows = new Map();
  incr(key, callback, ms) {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + ms };
      this.windows.set(key, window);
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: window.endsAt - now });
  }
  child() {
    return this;
  }
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function storeCost(database) {
  const store = new (databaseStore(database.db))({});
  const count = (key) =>
    new Promise((resolve, reject) =>
      store.incr(key, (error) => (error ? reject(error) : resolve()), 60_000, 1),
    );
  for (let i = 0; i < 20; i++) await count(`warm ${i % 5}`);
  const start = performance.now();
  for (let i = 0; i < COUNTS; i++) await count(`api 192.0.2.${i % 50}`);
  return (performance.now() - start) / COUNTS;
}

async function requestsPerSecond(database, dist, root, store, url) {
  const app = await buildServer({
    distDir: dist,
    dataDir: path.join(root, 'data'),
    imagesDir: path.join(root, 'images'),
    imageCacheDir: path.join(root, 'image-cache'),
    headers: { iconFallbackUrl: 'https://api.iconify.design', hsts: false },
    logger: false,
    api: readApiConfig({}),
    database,
    rateLimits: UNLIMITED,
    ...(store ? { rateLimitStore: store } : {}),
  });
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const result = await autocannon({ url: `${address}${url}`, connections: 10, duration: seconds });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.requests.average;
  } finally {
    await app.close();
  }
}

async function bench(label, config, root, dist) {
  const database = await openDatabase(config, { migrate: true, demoData: true });
  try {
    const costs = [];
    const rows = { '/api/session': [], '/api/campaigns': [] };
    for (let round = 0; round < rounds; round++) {
      costs.push(await storeCost(database));
      for (const url of Object.keys(rows)) {
        // Alternated within the round, so that neither gets the quieter moment.
        const inMemory = await requestsPerSecond(database, dist, root, memoryStore, url);
        const inDatabase = await requestsPerSecond(database, dist, root, undefined, url);
        rows[url]?.push([inMemory, inDatabase]);
      }
    }
    const perCount = median(costs).toFixed(2);
    console.log(
      `\n${label}: one count in request_limits, median of ${rounds} rounds of ${COUNTS}: ${perCount} ms`,
    );
    const rate = (value) => `${value.toFixed(0).padStart(6)} req/s`;
    for (const [url, pairs] of Object.entries(rows))
      for (const [inMemory, inDatabase] of pairs)
        console.log(
          `  GET ${url.padEnd(15)} limits in memory ${rate(inMemory)}   in the database ${rate(inDatabase)}` +
            `   ${(inDatabase / inMemory).toFixed(2)}×`,
        );
  } finally {
    await database.close();
  }
}

const root = await mkdtemp(path.join(tmpdir(), 'campaign-web-bench-limits-'));
try {
  const dist = path.join(root, 'dist');
  await mkdir(path.join(dist, '_app/builds'), { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><html><body>app</body></html>');
  await writeFile(path.join(dist, '_app/builds/latest.json'), '{"id":"bench","timestamp":1}');
  await bench('PGlite (folder, fsync on)', { kind: 'pglite', dir: path.join(root, 'pglite') }, root, dist);
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `campaign_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const own = new URL(url);
    own.pathname = `/${name}`;
    try {
      await bench('PostgreSQL', { kind: 'postgres', url: own.toString(), poolSize: 10 }, root, dist);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  } else
    console.log(
      '\n(TEST_DATABASE_URL unset: PostgreSQL not measured; scripts/ci/with-postgres.sh sets one up)',
    );
} finally {
  await rm(root, { recursive: true, force: true });
}
