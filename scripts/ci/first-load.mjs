// What each route's first load downloads before its page can show, read from Vite's build manifest: the
// entry with everything it imports statically, the parts of the app it imports at start (build/startChunks.ts),
// plus the route's page chunk with its static imports. Shared by
// the size-budget test (scripts/ci/size-budget.test.mjs) and `npm run bench`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { startKeys, staticImports } from '../../build/startChunks.ts';

/** The page module of each route, as src/pages/registry.ts imports it. */
export const routePages = {
  '/': 'src/pages/index.tsx',
  '/home': 'src/pages/home.tsx',
  '/login': 'src/pages/login.tsx',
  '/campaign/1': 'src/pages/campaign.tsx',
  '/profile': 'src/pages/profile.tsx',
  '/campaign/components/info': 'src/pages/componentsInfo.tsx',
};

export function readManifest(dist = 'dist') {
  return JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
}

/** Raw, gzip (level 6, what the servers use) and brotli (quality 11) bytes of one file. */
export function sizesOf(path) {
  const bytes = readFileSync(path);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 6 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

export function sumSizes(list) {
  return list.reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), {
    raw: 0,
    gzip: 0,
    brotli: 0,
  });
}

/** The JS and CSS files of each route's first load, with their summed sizes. */
export function firstLoads(dist = 'dist') {
  const manifest = readManifest(dist);
  const started = startKeys(manifest);
  const result = {};
  for (const [route, page] of Object.entries(routePages)) {
    if (!manifest[page]) throw new Error(`The build has no chunk for ${page} (route ${route}).`);
    const keys = staticImports(manifest, page, new Set(started));
    const js = [...new Set([...keys].map((key) => manifest[key].file))].filter((file) =>
      file.endsWith('.js'),
    );
    const css = [...new Set([...keys].flatMap((key) => manifest[key].css ?? []))];
    result[route] = {
      js,
      css,
      jsSize: sumSizes(js.map((file) => sizesOf(join(dist, file)))),
      cssSize: sumSizes(css.map((file) => sizesOf(join(dist, file)))),
    };
  }
  return result;
}
