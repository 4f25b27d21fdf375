// Benchmarks: figures, never pass/fail. Builds if there is no build, then prints
//  1. what the first load of `/` downloads (entry, its static imports, CSS, and the `/` page chunk), raw/gzip/brotli;
//  2. every chunk of the build;
//  3. navigation throughput of the app machine with instant fake page loads (the machine's own cost), and the
//     toaster's (tests/bench);
//  4. toast memory in Chromium (scripts/bench/bench-toasts.mjs);
//  5. the bytes sent over the wire for the first load of `/` from the production server (scripts/bench/bench-wire.mjs),
//     and how long its entry script takes while images render (scripts/bench/bench-files-under-renders.mjs);
//  6. demo API throughput and latency on PGlite and PostgreSQL (scripts/bench/bench-api.mjs), and what a refused
//     sign-in costs, account by account (scripts/bench/bench-refusals.ts);
//  6b. this app side by side with the reference build in Chromium (scripts/bench/bench-web.mjs): first-load bytes,
//     FCP, LCP, navigation cold and after hover, Lighthouse; with ratios.
//  7. first paint of `/` and `/campaign/1`, prerendered and as an SPA shell (scripts/bench/bench-paint.mjs);
//  8. pages rendered on request on 10,000 campaigns: p50/p95 with a warm and a cold cache beside the same page as
//     a static file (scripts/bench/bench-pages.mjs, on a throw-away PostgreSQL server).
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { startKeys, staticImports } from '../../build/startChunks.ts';

if (!existsSync('dist/.vite/manifest.json') || !existsSync('dist-server/main.mjs'))
  execSync('npm run build', { stdio: 'inherit' });
const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'));

const sizes = (file) => {
  const bytes = readFileSync(`dist/${file}`);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes).length,
  };
};
const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
const row = (name, s) =>
  `${name.padEnd(52)} ${kB(s.raw).padStart(10)} ${kB(s.gzip).padStart(10)} ${kB(s.brotli).padStart(10)}`;
const header = `${'file'.padEnd(52)} ${'raw'.padStart(10)} ${'gzip -9'.padStart(10)} ${'brotli'.padStart(10)}`;

const indexPageKey = Object.keys(manifest).find((key) => key.endsWith('src/pages/index.tsx'));
const groups = [
  ['entry + static imports + start parts (the app)', startKeys(manifest)],
  [
    'plus the `/` page chunk (first page on screen)',
    staticImports(manifest, indexPageKey, startKeys(manifest)),
  ],
];
console.log('\n== Initial load of / ==');
for (const [label, keys] of groups) {
  const js = [...keys].map((key) => manifest[key].file);
  const css = [...new Set([...keys].flatMap((key) => manifest[key].css ?? []))];
  const total = (files) =>
    files
      .map(sizes)
      .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), {
        raw: 0,
        gzip: 0,
        brotli: 0,
      });
  console.log(`\n${label}`);
  console.log(header);
  console.log(row(`JS (${js.length} files)`, total(js)));
  console.log(row(`CSS (${css.length} files)`, total(css)));
}

console.log('\n== Every chunk ==');
console.log(header);
const files = [
  ...new Set(Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])])),
].sort();
for (const file of files) console.log(row(file, sizes(file)));

console.log('\n== App machine navigation throughput ==');
execSync('npx vitest bench --run tests/bench --reporter=default', { stdio: 'inherit' });

// Toast memory in Chromium: 10,000 toasts created and dismissed; live actors, DOM nodes and heap before/after.
execSync('node scripts/bench/bench-toasts.mjs', { stdio: 'inherit' });

// Wire bytes of the first load of `/` (brotli) from the production server, cold and warm.
execSync('node scripts/bench/bench-wire.mjs', { stdio: 'inherit' });
execSync('node scripts/bench/bench-files-under-renders.mjs', { stdio: 'inherit' });
// Demo API req/s and p50/p99 on PGlite, and on a throw-away PostgreSQL server when one can be started.
const pgInstalled =
  execSync('ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null || true').toString().trim() !== '';
execSync(
  pgInstalled
    ? 'scripts/ci/with-postgres.sh node scripts/bench/bench-api.mjs'
    : 'node scripts/bench/bench-api.mjs',
  {
    stdio: 'inherit',
  },
);

// Pages rendered on request on 10,000 campaigns: warm and cold cache beside a static file (PostgreSQL only).
execSync(
  pgInstalled
    ? 'scripts/ci/with-postgres.sh node scripts/bench/bench-pages.mjs'
    : 'node scripts/bench/bench-pages.mjs',
  { stdio: 'inherit' },
);

// What a refused sign-in costs over HTTP: a seeded account, an unknown email, argon2id accounts.
execSync('node --import tsx scripts/bench/bench-refusals.ts', { stdio: 'inherit' });

// The web figures and ratios to the reference build.
execSync('node scripts/bench/bench-web.mjs', { stdio: 'inherit' });
// First contentful paint, the main heading's paint and LCP, prerendered against the SPA shell (medians of 10).
execSync('node scripts/bench/bench-paint.mjs', { stdio: 'inherit' });
// Interaction durations as INP counts them (Event Timing), at 1x and 4x CPU, side by side with the reference.
execSync('node scripts/bench/bench-interactions.mjs', { stdio: 'inherit' });
