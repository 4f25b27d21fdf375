import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { IconifyJSON } from '@iconify/types';
import { getIcons, matchIconName } from '@iconify/utils';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { loggable, loggablePath } from '../../api/logSafe.ts';
import type { Logger, Middleware } from '../http.ts';

/** The spec's icon path shape: `/api/_nuxt_icon/{prefix}.json?icons=a,b`. */
export const ICON_ENDPOINT = '/api/_nuxt_icon';

/** More names than this in one request is not a page asking for icons; Iconify's own client sends far fewer. */
export const MAX_ICONS_PER_REQUEST = 100;

/**
 * Answers may be cached for a week, as nuxt/icon's server route does (`maxAge 604800`): an icon set changes
 * only when the installed `@iconify-json/*` package is upgraded, and a stale icon for a few days is harmless.
 */
const CACHE_CONTROL = 'public, max-age=604800';

const require = createRequire(import.meta.url);
const collections = new Map<string, Promise<IconifyJSON | undefined>>();

/**
 * The collection `prefix` from its installed `@iconify-json/{prefix}` package, or undefined when that package
 * is not installed. Only well-formed prefixes are ever looked up, so a request cannot name an arbitrary module.
 */
export function loadCollection(prefix: string): Promise<IconifyJSON | undefined> {
  if (!matchIconName.test(prefix)) return Promise.resolve(undefined);
  let loaded = collections.get(prefix);
  if (!loaded) {
    loaded = (async () => {
      let file: string;
      try {
        file = require.resolve(`@iconify-json/${prefix}/icons.json`);
      } catch {
        return undefined;
      }
      const { readFile } = await import('node:fs/promises');
      return JSON.parse(await readFile(file, 'utf8')) as IconifyJSON;
    })();
    // Only found collections are remembered: a typo'd prefix must not grow the map for ever.
    loaded.then((found) => found ?? collections.delete(prefix)).catch(() => collections.delete(prefix));
    collections.set(prefix, loaded);
  }
  return loaded;
}

export interface IconResponse {
  status: number;
  headers: Record<string, string>;
  body: IconifyJSON | { message: string };
}

function fail(status: number, message: string, headers: Record<string, string> = {}): IconResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: { message },
  };
}

/**
 * The icon endpoint as a pure function of method and URL. Icons of an installed collection come back as one
 * IconifyJSON (with `not_found` for names the collection lacks, as the Iconify API answers). A collection
 * that is not installed is a 404, which the client answers by asking the public Iconify API.
 */
export async function handleIconRequest(method: string, url: string): Promise<IconResponse> {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  const match = new RegExp(`^${ICON_ENDPOINT}/([^/]+)\\.json$`).exec(pathname);
  const prefix = match?.[1];
  if (prefix === undefined) {
    return fail(404, `Icon requests look like ${ICON_ENDPOINT}/{prefix}.json?icons=name1,name2.`);
  }
  if (method !== 'GET' && method !== 'HEAD') {
    return fail(405, `${method} is not allowed on ${pathname}; use GET.`, { allow: 'GET, HEAD' });
  }
  if (!matchIconName.test(prefix))
    return fail(400, `"${prefix.slice(0, 40)}" is not an icon collection name.`);
  const names = (searchParams.get('icons') ?? '').split(',').filter((name) => name !== '');
  if (names.length === 0) return fail(400, 'Name the icons to load: ?icons=name1,name2.');
  if (names.length > MAX_ICONS_PER_REQUEST) {
    return fail(400, `Ask for at most ${MAX_ICONS_PER_REQUEST} icons per request.`);
  }
  const invalid = names.find((name) => !matchIconName.test(name));
  if (invalid !== undefined) return fail(400, `"${invalid.slice(0, 40)}" is not a valid icon name.`);

  const collection = await loadCollection(prefix);
  if (!collection) {
    return fail(
      404,
      `Icon collection "${prefix}" is not installed on this server (npm i -D @iconify-json/${prefix}).`,
    );
  }
  const icons = getIcons(collection, [...new Set(names)], true) ?? { prefix, icons: {} };
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': CACHE_CONTROL },
    body: icons,
  };
}

function isIconPath(url: string | undefined): boolean {
  const pathname = (url ?? '').split('?')[0] ?? '';
  return pathname === ICON_ENDPOINT || pathname.startsWith(`${ICON_ENDPOINT}/`);
}

/** Connect middleware for `vite` and `vite preview`; everything outside the icon endpoint goes to `next()`. */
export function createIconMiddleware(log: Logger = console): Middleware {
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const response = await handleIconRequest(method, req.url ?? '/');
    const payload = JSON.stringify(response.body);
    res.statusCode = response.status;
    for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
    res.setHeader('content-length', Buffer.byteLength(payload));
    res.end(method === 'HEAD' ? undefined : payload);
  };
  return (req, res, next) => {
    if (!isIconPath(req.url)) {
      next();
      return;
    }
    serve(req, res).catch((error: unknown) => {
      log.error(`[icons] ${req.method} ${loggablePath(req.url)} failed:`, loggable(error));
      if (res.headersSent) res.destroy();
      else {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ message: 'The icon endpoint failed unexpectedly.' }));
      }
    });
  };
}

/** The icon endpoint in the production server (the dev server mounts `createIconMiddleware`). */
export const iconRoutes: FastifyPluginAsync = async (app) => {
  const iconHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const response = await handleIconRequest(request.method, request.raw.url ?? request.url);
    reply.code(response.status).headers(response.headers);
    return reply.send(JSON.stringify(response.body));
  };
  app.all(ICON_ENDPOINT, iconHandler);
  app.all(`${ICON_ENDPOINT}/*`, iconHandler);
};
