/**
 * The build manifest: every build gets an id the app knows at run time (`__BUILD_ID__`), and writes
 * `_app/builds/latest.json` ({ id, timestamp }) and `_app/builds/meta/{id}.json` ({ id, timestamp, rules,
 * prerendered }) from the one typed source of route rules. The dev and preview servers serve them with the
 * right caching (latest: never cached; meta: immutable) and apply the redirect rules to document requests,
 * so a deep link is redirected before any JavaScript runs.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { routeRules, rulesFor } from '../core/routeRules.ts';
import { parseLocation } from '../core/routes.ts';
import { newBuildId } from '../core/untrustedText.ts';

type Next = (error?: unknown) => void;

const BUILDS = '_app/builds';

function manifestOf(id: string, timestamp: number) {
  return { id, timestamp, rules: routeRules, prerendered: [] as string[] };
}

function sendJson(res: ServerResponse, body: string, cacheControl: string): void {
  res.statusCode = 200;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', cacheControl);
  res.end(body);
}

const NO_STORE = 'no-store';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Redirect rules for documents: a browser asking for HTML at a redirected path gets a 307. */
function redirectRules(base: string) {
  return (req: IncomingMessage, res: ServerResponse, next: Next) => {
    const accept = req.headers.accept ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !accept.includes('text/html') || !req.url)
      return next();
    const location = parseLocation(req.url.startsWith(base) ? `/${req.url.slice(base.length)}` : req.url);
    if (!location) return next();
    const redirect = rulesFor(location.pathname, routeRules).redirect;
    if (!redirect || !parseLocation(redirect)) return next();
    res.statusCode = 307;
    res.setHeader('location', `${base.replace(/\/$/, '')}${redirect}${location.search}`);
    res.end();
  };
}

export function buildManifest(): Plugin {
  let buildId = 'dev';
  let outDir = 'dist';
  let base = '/';
  const startedAt = Date.now();
  return {
    name: 'campaign-web:build-manifest',
    config(_, { command }) {
      buildId = command === 'build' ? newBuildId(Date.now(), randomBytes(4).toString('hex')) : 'dev';
      return { define: { __BUILD_ID__: JSON.stringify(buildId) } };
    },
    configResolved(resolved) {
      outDir = resolve(resolved.root, resolved.build.outDir);
      base = resolved.base;
    },
    generateBundle() {
      const timestamp = Date.now();
      this.emitFile({
        type: 'asset',
        fileName: `${BUILDS}/latest.json`,
        source: JSON.stringify({ id: buildId, timestamp }),
      });
      this.emitFile({
        type: 'asset',
        fileName: `${BUILDS}/meta/${buildId}.json`,
        source: JSON.stringify(manifestOf(buildId, timestamp)),
      });
    },
    configureServer(server) {
      server.middlewares.use(redirectRules(base));
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        if (path === `${base}${BUILDS}/latest.json`)
          return sendJson(res, JSON.stringify({ id: 'dev', timestamp: startedAt }), NO_STORE);
        if (path === `${base}${BUILDS}/meta/dev.json`)
          return sendJson(res, JSON.stringify(manifestOf('dev', startedAt)), NO_STORE);
        next();
      });
    },
    configurePreviewServer(server) {
      server.middlewares.use(redirectRules(base));
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        const prefix = `${base}${BUILDS}/`;
        if (!path.startsWith(prefix)) return next();
        const relative = path.slice(prefix.length);
        const isLatest = relative === 'latest.json';
        if (!isLatest && !/^meta\/[\w-]+\.json$/.test(relative)) return next();
        readFile(join(outDir, BUILDS, relative), 'utf8').then(
          (body) => sendJson(res, body, isLatest ? NO_STORE : IMMUTABLE),
          () => next(),
        );
      });
    },
  };
}
