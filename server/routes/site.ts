/**
 * The site: the build's files (precompressed variants chosen by Accept-Encoding, cached by kind of file), the
 * public pages rendered on request with their `_payload.json` (server/render/), the sitemap, the route rules'
 * redirects, and the SPA shell for any other page, filled in for a signed-in visitor without JavaScript.
 * Requests resolve only against the set of files read at start.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Accounts } from '../../api/accounts.ts';
import { fillLoginTemplate, shellForSignedIn } from '../../api/forms.ts';
import { isRenderedPath, routeRules, rulesFor } from '../../core/routeRules.ts';
import { parseLocation } from '../../core/routes.ts';
import { isDocumentRequest, plain } from '../http.ts';
import { CACHE, cacheControlFor } from '../plugins/securityHeaders.ts';
import { type PageService, pageKey } from '../render/pages.ts';
import { isSitemapName } from '../render/sitemap.ts';
import { isFileLikePath } from './fileLikePaths.ts';

/** Static hosts' files (build/crawlerFiles.ts, `_headers`): this server has its own rules. */
const HOST_FILES = new Set(['_headers', '_redirects', '404.html']);

/** Files of the build that are never served: source maps, dotfiles (Vite's `.vite/` manifest), host config. */
function isPrivate(relative: string): boolean {
  return (
    relative.endsWith('.map') ||
    HOST_FILES.has(relative) ||
    relative.split('/').some((segment) => segment.startsWith('.'))
  );
}

/** Every servable file of the build, relative and `/`-separated: requests resolve only against this set. */
async function filesOf(dir: string): Promise<Set<string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  const all = new Set(files);
  // The .br/.gz siblings are chosen by Accept-Encoding, never asked for by name.
  const isVariant = (file: string) => /\.(br|gz)$/.test(file) && all.has(file.replace(/\.(br|gz)$/, ''));
  return new Set(files.filter((file) => !isPrivate(file) && !isVariant(file)));
}

async function readBuildId(distDir: string): Promise<string> {
  try {
    const latest = JSON.parse(await readFile(path.join(distDir, '_app/builds/latest.json'), 'utf8'));
    return typeof latest.id === 'string' ? latest.id : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The build as the server serves it, read once at start. */
export interface Site {
  /** The build (absolute). */
  distDir: string;
  files: Set<string>;
  /** The SPA shell's file: 200.html when the build has one (index.html is the same shell, as Vite wrote it). */
  shell: string;
  /** The shell's bytes, for answers that have no sendFile (the router's bad-URL handler). */
  shellHtml: Buffer;
  /** The build's id (`_app/builds/latest.json`), which /healthz reports. */
  buildId: string;
}

export async function readSite(distDir: string): Promise<Site> {
  const [files, buildId] = await Promise.all([filesOf(distDir), readBuildId(distDir)]);
  const shell = files.has('200.html') ? '200.html' : 'index.html';
  // The shell is small and never changes.
  const shellHtml = files.has(shell) ? await readFile(path.join(distDir, shell)) : Buffer.from('');
  return { distDir, files, shell, shellHtml, buildId };
}

export class BadPathError extends Error {}

/**
 * The request path as decoded segments. Throws BadPathError for any traversal attempt: `.` or `..` segments
 * (also percent-encoded), encoded `/` or `\`, NUL and other control characters. Returns undefined when the
 * path is not valid percent-encoding at all.
 */
export function pathSegments(rawPath: string): string[] | undefined {
  const parts = rawPath.split('/').slice(1);
  const segments: string[] = [];
  for (const part of parts) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
    if (segment === '.' || segment === '..' || /[/\\\u0000-\u001f\u007f]/.test(segment))
      throw new BadPathError();
    segments.push(segment);
  }
  return segments;
}

export interface SiteRoutesOptions {
  site: Site;
  /** The API's accounts once it has opened (server/routes/api.ts), for the no-JavaScript signed-in shell. */
  accounts: () => Accounts | undefined;
  /** The pages rendered on request; none: every page gets the shell (a build without its render bundle). */
  pages?: PageService | undefined;
  /** `/sitemap.xml` and its parts, when the site's origin is known (server/render/sitemap.ts). */
  sitemap?:
    | ((request: FastifyRequest, reply: FastifyReply, name: string) => Promise<FastifyReply>)
    | undefined;
  /** The sign-up mode of `/login` with the form placeholders in (server/render/setup.ts); none: the page as is. */
  signUpTemplate?: string | undefined;
}

const PAYLOAD_FILE = '_payload.json';

const isSignUpQuery = (query: unknown) => (query as Record<string, unknown> | undefined)?.mode === 'signup';

export const siteRoutes: FastifyPluginAsync<SiteRoutesOptions> = async (
  app,
  { site, accounts, pages, sitemap, signUpTemplate },
) => {
  // `/login?mode=signup` without JavaScript: the sign-up mode of the page, rendered at start with nothing typed.
  const signUpPage =
    signUpTemplate === undefined
      ? undefined
      : fillLoginTemplate(signUpTemplate, { form: 'signup', error: '', email: '', displayName: '' });
  const { files, shell, shellHtml } = site;
  await app.register(fastifyStatic, {
    root: site.distDir,
    serve: false,
    preCompressed: true,
    // Caching is set per kind of file (cacheControlFor); send's own default would override it.
    cacheControl: false,
    dotfiles: 'deny',
    index: false,
  });

  function sendBuildFile(reply: FastifyReply, relative: string) {
    reply.header('cache-control', cacheControlFor(relative));
    return reply.sendFile(relative);
  }
  function sendShell(reply: FastifyReply) {
    return sendBuildFile(reply, shell);
  }

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (request, reply) => {
      const rawPath = (request.raw.url ?? '/').split('?')[0] ?? '/';
      let segments: string[] | undefined;
      try {
        segments = pathSegments(rawPath);
      } catch (error) {
        if (error instanceof BadPathError) return plain(reply, 400, 'Bad request: the path is not allowed.');
        throw error;
      }
      if (segments === undefined) {
        return isDocumentRequest(request)
          ? sendShell(reply)
          : plain(reply, 400, 'Bad request: undecodable path.');
      }
      const relative = segments.join('/');
      if (files.has(relative)) return sendBuildFile(reply, relative);
      if (sitemap && isSitemapName(relative)) return sitemap(request, reply, relative);
      if (pages) {
        // A page the server renders, or its payload: `/campaign/1` (or `/campaign/1/`), `/campaign/1/_payload.json`.
        const isPayload = segments.at(-1) === PAYLOAD_FILE;
        const pathname = `/${(isPayload ? segments.slice(0, -1) : segments).join('/')}`;
        if (
          signUpPage !== undefined &&
          pathname.replace(/\/$/, '') === '/login' &&
          isSignUpQuery(request.query)
        ) {
          return reply.header('cache-control', CACHE.never).type('text/html; charset=utf-8').send(signUpPage);
        }
        if (isRenderedPath(pathname, routeRules)) {
          const search = new URLSearchParams((request.raw.url ?? '').split('?')[1] ?? '');
          // A payload's query is the build id (core/payload.ts payloadUrl), never the page's.
          const key = pageKey(pathname, isPayload ? new URLSearchParams() : search);
          return pages.answer(request, reply, key, isPayload ? 'payload' : 'document');
        }
      }
      // Missing build files are real 404s: chunk-load recovery tells a new deploy from a broken network by it.
      // So is any path that names a file the app would never route (`/robots.txt`, `/favicon.ico`).
      if (
        relative.startsWith('assets/') ||
        relative.startsWith('_app/') ||
        isPrivate(relative) ||
        isFileLikePath(relative)
      ) {
        return plain(reply, 404, 'Not found.');
      }
      if (!isDocumentRequest(request)) return plain(reply, 404, 'Not found.');
      const location = parseLocation(request.raw.url ?? '/');
      const redirect = location ? rulesFor(location.pathname, routeRules).redirect : undefined;
      if (location && redirect && parseLocation(redirect)) {
        return reply.code(307).header('location', `${redirect}${location.search}`).send();
      }
      // A signed-in visitor without JavaScript still gets the profile and sign-out forms (api/forms.ts).
      const shared = accounts();
      const personal =
        shared && (await shellForSignedIn(shellHtml.toString('utf8'), shared, request.headers.cookie));
      if (personal) {
        return reply.header('cache-control', CACHE.never).type('text/html; charset=utf-8').send(personal);
      }
      return sendShell(reply);
    },
  });
};
