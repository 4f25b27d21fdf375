/**
 * The public pages, rendered on request (the route rules with `prerender`, core/routeRules.ts): a document and
 * its `_payload.json` from one render, kept in the instance's page cache (./cache.ts) until a write drops them
 * (./listener.ts, ./tags.ts). Each answer has an ETag (a 304 for a client that has it), `Cache-Control:
 * public, no-cache` (browsers and a CDN keep it and revalidate every use) and, for a document, its own CSP
 * with the hashes of its inline scripts and styles.
 *
 * Faults: renders run a few at a time behind a bounded queue (a full queue answers 503 at once), each within a
 * time limit, so a slow page does not hold the others; a render that fails answers the 500 page (the shell,
 * whose app shows the error view) and is logged once per page until it renders again; when the database is
 * down, a page still cached is served, marked stale (`X-Page-Cache: stale`).
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { DocumentRenderer, RenderedDocument } from '../../core/payload.ts';
import { withoutTrailingSlash } from '../../core/routeRules.ts';
import { hashesOfHtml } from '../plugins/inlineHashes.ts';
import type { PolicyInputs } from '../plugins/securityHeaders.ts';
import { CACHE } from '../plugins/securityHeaders.ts';
import type { CachedPage, PageCache } from './cache.ts';
import { tagsOfPage } from './tags.ts';

/** Public, kept by browsers and shared caches, revalidated (ETag) on every use: a write shows at once. */
export const PAGE_CACHE_CONTROL = 'public, no-cache';

export interface RenderLimits {
  /** Renders under way at once. */
  concurrency: number;
  /** Renders waiting for a turn; past that a request is answered 503 at once. */
  maxQueued: number;
  /** A render not done by then is given up: 503 (or the stale copy). */
  timeoutMs: number;
}

export const RENDER_LIMITS: RenderLimits = { concurrency: 4, maxQueued: 64, timeoutMs: 5_000 };

export interface PageServiceOptions {
  renderer: DocumentRenderer;
  cache: PageCache;
  /** The CSP header of a document with these inline hashes (the build's own are added). */
  policyFor: (page: PolicyInputs) => string;
  /** Whether the cache may be trusted right now (the listener is listening). */
  trusted: () => boolean;
  /** The SPA shell: what a page that cannot be rendered answers with. */
  shellHtml: Buffer;
  log: FastifyBaseLogger;
  limits?: RenderLimits;
  now?: () => number;
}

/** A render that came back with the loader's own verdict: a campaign that does not exist, a bad cursor. */
class PageRefused extends Error {
  constructor(readonly status: number) {
    super(`refused with ${status}`);
  }
}

class RenderBusy extends Error {}
class RenderTimeout extends Error {}

export type Variant = 'document' | 'payload';

function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Whether `If-None-Match` names this ETag (weak comparison, as for a GET). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}

/** The HTTP status an error of a loader carries (src/platform/api.ts ApiError's statusCode), if any. */
function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The cache key of a rendered page: its path without a trailing slash, and on the landing page the cursor of a
 * later page (`/?after=c1k`); any other query is not the page's (the document is the path's).
 */
export function pageKey(pathname: string, search: URLSearchParams): string {
  const path = withoutTrailingSlash(pathname);
  const after = search.get('after');
  return path === '/' && after !== null ? `/?after=${encodeURIComponent(after)}` : path;
}

export interface PageService {
  answer(request: FastifyRequest, reply: FastifyReply, key: string, variant: Variant): Promise<FastifyReply>;
  /** Renders waiting and under way, for /healthz. */
  load(): { active: number; queued: number };
  /** The last render failure, for /healthz (`null` after a render succeeds). */
  lastFailure(): string | null;
}

export function createPageService(options: PageServiceOptions): PageService {
  const { renderer, cache, log } = options;
  const limits = options.limits ?? RENDER_LIMITS;
  const now = options.now ?? Date.now;
  const limit = pLimit(limits.concurrency);
  /** Pages whose render failed, with the message logged: each failure is logged once until it renders again. */
  const failing = new LRUCache<string, string>({ max: 1_000 });
  let lastFailure: string | null = null;

  const withinLimit = <T>(run: () => Promise<T>): Promise<T> => {
    if (limit.pendingCount >= limits.maxQueued) return Promise.reject(new RenderBusy());
    return limit(() => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RenderTimeout()), limits.timeoutMs);
      });
      return Promise.race([run(), timeout]).finally(() => clearTimeout(timer));
    });
  };

  const build = (key: string, rendered: RenderedDocument): CachedPage => {
    const html = Buffer.from(rendered.html);
    const payload = Buffer.from(JSON.stringify(rendered.payload));
    return {
      key,
      variants: {
        document: {
          body: html,
          etag: etagOf(html),
          contentType: 'text/html; charset=utf-8',
          headers: { 'content-security-policy': options.policyFor(hashesOfHtml(rendered.html)) },
        },
        payload: {
          body: payload,
          etag: etagOf(payload),
          contentType: 'application/json; charset=utf-8',
          headers: {},
        },
      },
      tags: tagsOfPage(key, rendered.payload),
      renderedAt: now(),
    };
  };

  const render = (key: string) =>
    withinLimit(async () => {
      let rendered: RenderedDocument;
      try {
        rendered = await renderer.render(key);
      } catch (error) {
        const status = statusOf(error);
        // A campaign that does not exist, a draft (the render asks as nobody), an id or cursor that is none.
        if (status !== undefined && status >= 400 && status < 500) throw new PageRefused(404);
        if (error instanceof Error && /is not a page of this app/.test(error.message))
          throw new PageRefused(404);
        throw error;
      }
      return build(key, rendered);
    });

  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    page: CachedPage,
    variant: Variant,
    state: 'hit' | 'miss' | 'stale',
  ) => {
    const chosen = page.variants[variant];
    reply
      .header('cache-control', state === 'stale' ? CACHE.revalidate : PAGE_CACHE_CONTROL)
      .header('etag', chosen.etag)
      .header('x-page-cache', state)
      .headers(chosen.headers);
    if (matchesEtag(request.headers['if-none-match'], chosen.etag)) return reply.code(304).send();
    return reply.code(200).type(chosen.contentType).send(chosen.body);
  };

  const failed = (reply: FastifyReply, status: number, variant: Variant, message: string) => {
    reply.header('cache-control', CACHE.never);
    if (variant === 'payload')
      return reply.code(status).type('application/json; charset=utf-8').send({ message });
    return reply.code(status).type('text/html; charset=utf-8').send(options.shellHtml);
  };

  return {
    async answer(request, reply, key, variant) {
      const trusted = options.trusted();
      try {
        const cached = trusted ? cache.get(key) : undefined;
        if (cached) return send(request, reply, cached, variant, 'hit');
        const page = await cache.obtain(key, () => render(key), { keep: trusted });
        if (failing.delete(key)) log.info({ page: key }, 'page renders again');
        lastFailure = null;
        return send(request, reply, page, variant, 'miss');
      } catch (error) {
        if (error instanceof PageRefused) return failed(reply, error.status, variant, `No page at ${key}.`);
        const stale = cache.peek(key);
        if (stale) return send(request, reply, stale, variant, 'stale');
        if (error instanceof RenderBusy) {
          reply.header('retry-after', '1');
          return failed(reply, 503, variant, 'Too many pages are being rendered: try again in a moment.');
        }
        const message =
          error instanceof RenderTimeout
            ? `rendering took longer than ${limits.timeoutMs} ms`
            : error instanceof Error
              ? error.message
              : String(error);
        lastFailure = `${key}: ${message}`;
        if (!failing.has(key)) {
          failing.set(key, message);
          log.error({ page: key, err: error }, 'page could not be rendered');
        }
        return failed(
          reply,
          error instanceof RenderTimeout ? 503 : 500,
          variant,
          'The page could not be rendered.',
        );
      }
    },
    load: () => ({ active: limit.activeCount, queued: limit.pendingCount }),
    lastFailure: () => lastFailure,
  };
}
