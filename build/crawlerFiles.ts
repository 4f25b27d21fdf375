/**
 * What crawlers and static hosts read, written by the build's last step (build/finalizeBuild.ts) from the build
 * manifest, the route table and the route rules, so none of it can drift from the app:
 *  - `robots.txt`: the signed-in pages and the API are not pages to crawl; the sitemap's address;
 *    (`/sitemap.xml` itself is the server's, from the database: server/render/sitemap.ts);
 *  - `_redirects` (Netlify's format; Cloudflare Pages reads the lines it supports): the route rules'
 *    redirects, the app's paths that are not files answered with the SPA shell, and `/api/*` plus the form
 *    posts proxied to `API_ORIGIN` when it is set;
 *  - `404.html`: the SPA shell, which both hosts answer any other path with, as a 404, so an unknown file
 *    (`/missing.png`) is a real 404 and an unknown page still shows the app's "Page Not Found" view.
 * Absolute URLs need the site's origin, which only the deployment knows: `PUBLIC_ORIGIN` at build time.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FORM_PATHS } from '../api/forms.ts';
import type { RouteRuleTable } from '../core/routeRules.ts';
import { routes as appRoutes, type RouteRecord } from '../core/routes.ts';

/** The static host's SPA shell and its not-found page, both the unrendered app (build/prerenderPages.ts). */
export const SHELL_FILE = '200.html';
export const NOT_FOUND_FILE = '404.html';
export const REDIRECTS_FILE = '_redirects';

/** The paths of routes that need a signed-in user: never worth crawling. */
function signedInPaths(routes: readonly RouteRecord[]): string[] {
  return routes.filter((route) => route.requiresAuth).map((route) => route.path);
}

export function robotsTxt(origin: string | undefined, routes: readonly RouteRecord[] = appRoutes): string {
  const lines = [
    '# Every public page may be crawled; the signed-in pages and the API are not pages.',
    'User-agent: *',
    'Disallow: /api/',
    ...signedInPaths(routes).map((path) => `Disallow: ${path}`),
  ];
  // The Sitemap line must be an absolute URL: without the site's origin there is no sitemap to name.
  if (origin) lines.push('', `Sitemap: ${origin}/sitemap.xml`);
  return `${lines.join('\n')}\n`;
}

/** A route's path as a `_redirects` pattern: `/campaign/:id` is already one; `**` prefixes become a splat. */
function pattern(path: string): string {
  return path.endsWith('/**') ? `${path.slice(0, -3)}/*` : path;
}

export interface RedirectsOptions {
  /** Route rules (the redirects) and the route table (the app's paths). */
  readonly rules: RouteRuleTable;
  readonly routes?: readonly RouteRecord[];
  /** The prerendered paths: files the host serves as they are. */
  readonly prerendered: readonly string[];
  /** Where the API and the form posts go, when the static host is not that server. */
  readonly apiOrigin?: string | undefined;
}

/**
 * `_redirects`, first matching rule wins. A rule whose path is a file (a prerendered page) is left to the file
 * ("shadowing"), except the forced (`200!`) form posts: a host cannot tell a POST from a GET, so those three
 * paths, their pages included, come from API_ORIGIN, which must serve the same build.
 */
export function redirectsFile(options: RedirectsOptions): string {
  const routes = options.routes ?? appRoutes;
  const lines = [
    '# Written by `npm run build` (build/crawlerFiles.ts). First match wins; a path that is a file is served as',
    '# the file. Any other path gets 404.html (the app, which shows its own "Page Not Found") with status 404.',
  ];
  if (options.apiOrigin) {
    lines.push(
      '',
      '# The API and the forms posted before the app runs, on the server at API_ORIGIN (same origin to the browser).',
      `/api/* ${options.apiOrigin}/api/:splat 200`,
      ...Object.values(FORM_PATHS).map((path) => `${path} ${options.apiOrigin}${path} 200!`),
    );
  }
  const redirects = Object.entries(options.rules).filter(([, rule]) => rule.redirect !== undefined);
  if (redirects.length > 0) {
    lines.push(
      '',
      "# The route rules' redirects (core/routeRules.ts), as the server answers them.",
      ...redirects.map(([path, rule]) => `${pattern(path)} ${rule.redirect} 307`),
    );
  }
  const prerendered = new Set(options.prerendered);
  const appPaths = routes.map((route) => route.path).filter((path) => !prerendered.has(path));
  lines.push(
    '',
    "# The app's pages that are not prerendered files: the SPA shell, whose router shows them.",
    ...appPaths.map((path) => `${pattern(path)} /${SHELL_FILE} 200`),
  );
  return `${lines.join('\n')}\n`;
}

export interface CrawlerFilesOptions {
  readonly distDir: string;
  /** `PUBLIC_ORIGIN` as the build saw it, checked (`originFrom`). */
  readonly origin: string | undefined;
  /** `API_ORIGIN`, checked. */
  readonly apiOrigin: string | undefined;
}

/** Writes robots.txt, _redirects and 404.html into the build. */
export async function writeCrawlerFiles(options: CrawlerFilesOptions): Promise<string[]> {
  const { distDir, origin, apiOrigin } = options;
  const builds = path.join(distDir, '_app/builds');
  const { id } = JSON.parse(await readFile(path.join(builds, 'latest.json'), 'utf8')) as { id: string };
  const meta = JSON.parse(await readFile(path.join(builds, 'meta', `${id}.json`), 'utf8')) as {
    rules: RouteRuleTable;
  };
  const written: Record<string, string | undefined> = {
    'robots.txt': robotsTxt(origin),
    // No page is a file of the build (the server renders them): a static host answers each with the shell.
    [REDIRECTS_FILE]: redirectsFile({ rules: meta.rules, prerendered: [], apiOrigin }),
    [NOT_FOUND_FILE]: await readFile(path.join(distDir, SHELL_FILE), 'utf8'),
  };
  const files: string[] = [];
  for (const [file, content] of Object.entries(written)) {
    if (content === undefined) continue;
    await writeFile(path.join(distDir, file), content);
    files.push(file);
  }
  return files;
}
