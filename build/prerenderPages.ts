/**
 * Build-time prerendering (issue 12). After `vite build` has written the client, this plugin:
 *  1. keeps the unrendered SPA shell as `dist/200.html` (for every path that is not prerendered);
 *  2. reads the deployment's data when the build is given it (PRERENDER_API_URL or DATABASE_URL), else an
 *     embedded database of its own (build/prerenderData.ts), and lists the paths the route rules prerender
 *     (`prerenderPaths`: the public pages, one per public campaign);
 *  3. loads the renderer vite.config.ts names (src/prerender.tsx) through Vite's module runner and renders each path with React's server
 *     renderer: same route table, loader, machine and components as the browser;
 *  4. writes `dist/{path}/index.html` (the shell with that page's markup, title, description, the page
 *     chunk preloaded and the payload inlined as JSON, arranged for its first paint: build/firstPaint.ts)
 *     and `dist/{path}/_payload.json` beside it;
 *  5. writes the failure template of `/login` (`dist/.forms/login.html`, see api/forms.ts);
 *  6. lists the paths in the build manifest (`prerendered`).
 * `vite preview` then serves a prerendered path's HTML, else `200.html` (the production server does the
 * same). Nothing renders per request.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer as createViteServer, loadEnv, type Plugin } from 'vite';
import type { CampaignListResponse } from '../api/types.ts';
import { FORM_PLACEHOLDERS, FORM_TEMPLATE_DIR } from '../core/formState.ts';
import { pageFileOf } from '../core/pages.ts';
import {
  INLINE_PAYLOAD_ID,
  type PagePayload,
  type PageRenderer,
  type RenderedPage,
  serializeInlinePayload,
} from '../core/payload.ts';
import { prerenderPaths, routeRules, withoutTrailingSlash } from '../core/routeRules.ts';
import { routes } from '../core/routes.ts';
import { arrangeForFirstPaint, readStylesheets } from './firstPaint.ts';
import { withPageMeta } from './pageMeta.ts';
import { startBuildApi, withBuildApi } from './prerenderData.ts';
import { LOW_PRIORITY } from './scriptPriority.ts';
import { originFrom } from './siteOrigin.ts';
import { startKeys, staticImports } from './startChunks.ts';

type Next = (error?: unknown) => void;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHELL = '200.html';
const BUILDS = '_app/builds';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Where a prerendered path's HTML goes: `/` is `index.html`, `/a/b` is `a/b/index.html`. */
export function htmlFileOf(path: string): string {
  const dir = withoutTrailingSlash(path).slice(1);
  return dir === '' ? 'index.html' : `${dir}/index.html`;
}

export interface DocumentParts {
  readonly html: string;
  readonly title: string;
  readonly description: string | null;
  readonly payload: PagePayload;
  /** Files (under the base) to `modulepreload`: the page's chunk and what it imports. */
  readonly preload: readonly string[];
  /**
   * The mode the page forces (its route's `colorMode`), written on `<html>` so that it holds with JavaScript
   * off too; the boot script would set the same attribute before the first paint.
   */
  readonly colorMode?: 'light' | 'dark';
}

/**
 * The shell with one page in it. Only `<title>`, the description, `#root`'s content and a few added tags
 * change: every inline script of the shell stays byte for byte as it is (the server hashes them for CSP).
 * The "needs JavaScript" notice goes, since this page works without it.
 */
export function renderDocument(shell: string, parts: DocumentParts, base = '/'): string {
  const replaceOnce = (text: string, pattern: RegExp, replacement: string, what: string) => {
    if (!pattern.test(text)) throw new Error(`The HTML shell has no ${what} to prerender into.`);
    return text.replace(pattern, () => replacement);
  };
  let out = replaceOnce(
    shell,
    /<title>[^<]*<\/title>/,
    `<title>${escapeHtml(parts.title)}</title>`,
    '<title>',
  );
  if (parts.description !== null) {
    out = replaceOnce(
      out,
      /<meta name="description" content="[^"]*"\s*\/?>/,
      `<meta name="description" content="${escapeHtml(parts.description)}" />`,
      'description',
    );
  }
  // React puts the resource hints of the page (the hero image's preload) first in its markup; they belong in
  // <head>, and `#root` must hold exactly what hydration renders.
  const hints = /^(?:<link [^>]*\/>)+/.exec(parts.html)?.[0] ?? '';
  const links = parts.preload
    .map(
      (file) =>
        `<link rel="modulepreload" ${LOW_PRIORITY} crossorigin href="${escapeHtml(`${base}${file}`)}">`,
    )
    .join('');
  // No frame before the whole page is parsed: a slow CPU's parser yields mid-page, and a page painted in pieces
  // grows as the rest arrives (the header's controls moved: a layout shift on every slow load). The payload
  // block follows `#root`, so it is parsed once the page is; browsers without `rel=expect` ignore the link.
  const wholePage = `<link rel="expect" href="#${INLINE_PAYLOAD_ID}" blocking="render">`;
  out = replaceOnce(out, /<\/head>/, `${hints}${links}${wholePage}</head>`, '</head>');
  if (parts.colorMode !== undefined)
    out = replaceOnce(out, /<html\b/, `<html data-color-mode="${parts.colorMode}"`, '<html>');
  // The payload block is data, never run: `type="application/json"`, with `<` escaped inside.
  const payload = `<script type="application/json" id="${INLINE_PAYLOAD_ID}">${serializeInlinePayload(parts.payload)}</script>`;
  const markup = parts.html.slice(hints.length);
  out = replaceOnce(
    out,
    /<div id="root">[\s\S]*?<\/div>/,
    `<div id="root">${markup}</div>${payload}`,
    '#root',
  );
  return out.replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
}

interface ViteManifestChunk {
  readonly file: string;
  readonly imports?: readonly string[];
}

/** The mode a route forces, if any (see `RouteRecord.colorMode`). */
function forcedColorModeOf(route: string): 'light' | 'dark' | undefined {
  return routes.find((record) => record.name === route)?.colorMode;
}

/** The page's chunk (core/pages.ts names its file) and its static imports, minus what the entry already loads. */
function chunkFiles(manifest: Record<string, ViteManifestChunk>, route: string): string[] {
  const file = pageFileOf(route);
  const key = Object.keys(manifest).find((name) => name.endsWith(`src/pages/${file}.tsx`));
  if (!file || !key) return [];
  // What the shell preloads already: the entry's chunks and the start parts' (build/startChunks.ts).
  const loaded = startKeys(manifest);
  return [...staticImports(manifest, key)]
    .filter((name) => !loaded.has(name))
    .map((name) => manifest[name]?.file ?? '');
}

export interface PrerenderOptions {
  /** The renderer module, from the project root (it exports `renderPage`; see `PageRenderer`). */
  readonly entry: string;
  /**
   * Plugins the renderer's module runner needs to load the app as the client build does (vite.config.ts
   * passes the icon bundle with its body parser, so icons render into the HTML exactly as they hydrate).
   */
  readonly renderPlugins?: readonly Plugin[];
}

export function prerenderPages({ entry, renderPlugins = [] }: PrerenderOptions): Plugin {
  let outDir = 'dist';
  let base = '/';
  let buildId = '';
  let enabled = false;
  /** The site's origin (PUBLIC_ORIGIN) for the pages' absolute URLs, from the environment or a .env file. */
  let origin: string | undefined;
  return {
    name: 'campaign-web:prerender',
    configResolved(config) {
      origin = originFrom(
        'PUBLIC_ORIGIN',
        loadEnv(config.mode, config.envDir || config.root, 'PUBLIC_ORIGIN').PUBLIC_ORIGIN,
      );
      outDir = resolve(config.root, config.build.outDir);
      base = config.base;
      enabled = config.command === 'build' && !config.build.ssr;
      const define = config.define?.__BUILD_ID__;
      buildId = typeof define === 'string' ? JSON.parse(define) : '';
    },
    async closeBundle() {
      if (!enabled) return;
      const started = Date.now();
      const shell = await readFile(join(outDir, 'index.html'), 'utf8');
      await writeFile(join(outDir, SHELL), shell);
      const manifest = JSON.parse(await readFile(join(outDir, '.vite/manifest.json'), 'utf8'));
      const styles = await readStylesheets(outDir, base, shell);
      const api = await startBuildApi();
      try {
        const list = (await (await fetch(`${api.apiBaseUrl}/campaigns`)).json()) as CampaignListResponse;
        const paths = prerenderPaths(routeRules, {
          '/campaign': list.campaigns.map((campaign) => String(campaign.id)),
        });
        const pages: { path: string; page: RenderedPage }[] = [];
        let failedLogin: RenderedPage | undefined;
        let failedSignUp: RenderedPage | undefined;
        // A Vite server without HTTP, only for its module runner: TSX, the icon bundle and the page chunks'
        // dynamic imports work as in the app; dependencies load from node_modules as they are.
        const vite = await createViteServer({
          root: ROOT,
          configFile: false,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false, watch: null },
          optimizeDeps: { noDiscovery: true, include: [] },
          plugins: [...renderPlugins],
          define: { __BUILD_ID__: JSON.stringify(buildId) },
        });
        try {
          const renderer = (await vite.ssrLoadModule(entry)) as unknown as PageRenderer;
          await withBuildApi(api.apiBaseUrl, async () => {
            for (const path of paths) pages.push({ path, page: await renderer.renderPage(path, buildId) });
            failedLogin = await renderer.renderPage('/login', buildId, {
              form: 'login',
              error: FORM_PLACEHOLDERS.error,
              email: FORM_PLACEHOLDERS.email,
            });
            failedSignUp = await renderer.renderPage('/login', buildId, {
              form: 'signup',
              error: FORM_PLACEHOLDERS.error,
              email: FORM_PLACEHOLDERS.email,
              displayName: FORM_PLACEHOLDERS.displayName,
              field: FORM_PLACEHOLDERS.field,
            });
          });
        } finally {
          await vite.close();
        }
        for (const { path, page } of pages) {
          const file = join(outDir, htmlFileOf(path));
          await mkdir(dirname(file), { recursive: true });
          const preload = chunkFiles(manifest, page.route);
          const colorMode = forcedColorModeOf(page.route);
          const html = renderDocument(shell, { ...page, preload, colorMode }, base);
          await writeFile(
            file,
            arrangeForFirstPaint(withPageMeta(html, { path, image: page.image, origin }), styles),
          );
          await writeFile(join(dirname(file), '_payload.json'), JSON.stringify(page.payload));
        }
        // What the server answers a failed sign-in posted as a form with (api/forms.ts): `/login` with the
        // message and the email as placeholders. In a dot folder, so it is never served as a file.
        for (const [name, failed] of [
          ['login', failedLogin],
          ['signup', failedSignUp],
        ] as const) {
          if (!failed) continue;
          const file = join(outDir, FORM_TEMPLATE_DIR, `${name}.html`);
          await mkdir(dirname(file), { recursive: true });
          const preload = chunkFiles(manifest, failed.route);
          const colorMode = forcedColorModeOf(failed.route);
          const html = renderDocument(shell, { ...failed, preload, colorMode }, base);
          await writeFile(file, arrangeForFirstPaint(html, styles));
        }
        const metaFile = join(outDir, BUILDS, 'meta', `${buildId}.json`);
        const meta = JSON.parse(await readFile(metaFile, 'utf8'));
        await writeFile(metaFile, JSON.stringify({ ...meta, prerendered: paths }));
        console.log(
          `prerendered ${paths.length} pages from ${api.where} in ${Date.now() - started} ms: ${paths.join(' ')}`,
        );
      } finally {
        await api.close();
      }
    },
    configurePreviewServer(server) {
      server.middlewares.use(servePrerendered(() => outDir, base));
    },
  };
}

/**
 * `vite preview` as the production server answers a document request: the prerendered HTML of that path
 * when there is one, else the SPA shell (`200.html`), so no other path ever shows a prerendered page.
 */
function servePrerendered(outDir: () => string, base: string) {
  let prerendered: Set<string> | null = null;
  const load = async () => {
    if (prerendered) return prerendered;
    try {
      const latest = JSON.parse(await readFile(join(outDir(), BUILDS, 'latest.json'), 'utf8'));
      const meta = JSON.parse(await readFile(join(outDir(), BUILDS, 'meta', `${latest.id}.json`), 'utf8'));
      prerendered = new Set(meta.prerendered as string[]);
    } catch {
      prerendered = new Set();
    }
    return prerendered;
  };
  return (req: IncomingMessage, res: ServerResponse, next: Next) => {
    const accept = req.headers.accept ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !accept.includes('text/html') || !req.url)
      return next();
    const raw = req.url.split('?')[0] ?? '';
    if (!raw.startsWith(base)) return next();
    const path = withoutTrailingSlash(`/${raw.slice(base.length)}`);
    if (
      path.startsWith('/api/') ||
      path.startsWith('/_ipx/') ||
      (/\.\w+$/.test(path) && path !== '/index.html')
    )
      return next();
    load().then((paths) => {
      const file = paths.has(path) ? htmlFileOf(path) : SHELL;
      const full = join(outDir(), file);
      if (!existsSync(full)) return next();
      readFile(full).then((body) => {
        res.statusCode = 200;
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.setHeader('cache-control', 'no-cache');
        res.end(req.method === 'HEAD' ? undefined : body);
      }, next);
    }, next);
  };
}
