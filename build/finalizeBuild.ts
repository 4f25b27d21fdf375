/**
 * The last step of `npm run build`, after everything that writes HTML into `dist/` (so prerendered pages are
 * covered): moves the source maps out of `dist/`, writes what crawlers and static hosts read (robots.txt,
 * sitemap.xml, _redirects, 404.html: build/crawlerFiles.ts), `dist/_headers` from server/plugins/securityHeaders.ts with
 * the CSP hashes of every HTML file, precompresses every text file, and assembles the production artifact in
 * `.output/` (build/outputArtifact.ts). Built to dist-server/finalize.mjs.
 *
 * Usage: node dist-server/finalize.mjs [distDir]   (OUTPUT_DIR: where the artifact goes, `.output` by default)
 */
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEnv } from 'vite';
import { hashesOfBuild } from '../server/plugins/inlineHashes.ts';
import {
  BUILD_ENV_FILE,
  headersFile,
  ICON_FALLBACK_URL,
  securityHeaders,
} from '../server/plugins/securityHeaders.ts';
import { writeCrawlerFiles } from './crawlerFiles.ts';
import { writeOutput } from './outputArtifact.ts';
import { precompress } from './precompress.ts';
import { originFrom } from './siteOrigin.ts';

const distDir = path.resolve(process.argv[2] ?? process.env.DIST_DIR ?? 'dist');
/** Beside the build, never inside it: kept for debugging, never deployed or served. */
const mapsDir = `${distDir}-sourcemaps`;

async function moveSourceMaps(): Promise<number> {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  const maps = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.map'));
  // A fresh build replaces the old maps; running this step again on the same build keeps them.
  if (maps.length > 0) await rm(mapsDir, { recursive: true, force: true });
  for (const entry of maps) {
    const from = path.join(entry.parentPath, entry.name);
    const to = path.join(mapsDir, path.relative(distDir, from));
    await mkdir(path.dirname(to), { recursive: true });
    await rename(from, to);
  }
  return maps.length;
}

// The API's address as the client build saw it (the environment or a .env file), so connect-src allows it; the
// site's own origin, for absolute URLs; the server a static host proxies the API to.
const env = loadEnv('production', process.cwd(), ['VITE_', 'PUBLIC_ORIGIN', 'API_ORIGIN']);
const apiBaseUrl = env.VITE_API_BASE_URL || undefined;
const publicOrigin = originFrom('PUBLIC_ORIGIN', env.PUBLIC_ORIGIN);
const apiOrigin = originFrom('API_ORIGIN', env.API_ORIGIN);
/** dist-server/finalize.mjs sits one folder below the project root, beside the server bundle. */
const serverDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(serverDir, '..');
const outputDir = path.resolve(process.env.OUTPUT_DIR || path.join(root, '.output'));

const movedMaps = await moveSourceMaps();
const crawlerFiles = await writeCrawlerFiles({ distDir, origin: publicOrigin, apiOrigin });
const hashes = await hashesOfBuild(distDir);
// Static hosts and CDNs serve over TLS, so HSTS is on in _headers.
const headers = securityHeaders(hashes, {
  apiBaseUrl,
  iconFallbackUrl: ICON_FALLBACK_URL,
  hsts: true,
});
await writeFile(path.join(distDir, '_headers'), headersFile(headers));
// For server/main.ts, which cannot read .env files at run time. A dotfile: never served.
await writeFile(
  path.join(distDir, BUILD_ENV_FILE),
  JSON.stringify({ apiBaseUrl: apiBaseUrl ?? null, publicOrigin: publicOrigin ?? null }),
);
const compressed = await precompress(distDir);
const output = await writeOutput({ root, distDir, serverDir, outputDir });
const sum = (pick: (c: (typeof compressed)[number]) => number | undefined) =>
  compressed.reduce((total, c) => total + (pick(c) ?? c.raw), 0);
console.log(
  `finalize: ${movedMaps} source maps moved to ${path.relative(process.cwd(), mapsDir)}/; ` +
    `CSP allows ${hashes.scriptHashes.length} inline script(s) by hash; _headers written; ` +
    `${compressed.length} text files precompressed ` +
    `(${(sum((c) => c.raw) / 1000).toFixed(1)} kB → br ${(sum((c) => c.br) / 1000).toFixed(1)} kB, ` +
    `gzip ${(sum((c) => c.gzip) / 1000).toFixed(1)} kB); ${crawlerFiles.join(', ')} written` +
    (publicOrigin ? ` for ${publicOrigin}` : ' (no PUBLIC_ORIGIN: no sitemap.xml, no absolute URLs)') +
    `; ${path.relative(process.cwd(), outputDir) || '.'}/ holds the server (${output.modules} modules), ` +
    `public/ and ${output.packages} runtime packages to install.`,
);
