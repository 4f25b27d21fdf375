// @vitest-environment node
// The answers of pages rendered on request (server/render/pages.ts), with a renderer the test controls: ETag and
// 304, the page's own CSP, a page that does not exist, the stale copy when rendering fails, the 500 page and one
// log line per failing page, the render time limit and the bounded queue.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentRenderer, RenderedDocument } from '../../../core/payload';
import { PageCache } from '../../../server/render/cache';
import { createPageService, matchesEtag, pageKey, type RenderLimits } from '../../../server/render/pages';

const SHELL = Buffer.from('<!doctype html><title>shell</title>');

function documentOf(path: string, text: string): RenderedDocument {
  return {
    html: `<!doctype html><html><head><script>boot()</script></head><body><div id="root" style="--x:1">${text}</div></body></html>`,
    payload: { buildId: 'b1', path, data: { id: 1, text } },
    route: 'campaign',
  };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(
  render: DocumentRenderer['render'],
  options: { trusted?: () => boolean; limits?: RenderLimits } = {},
) {
  const errors: unknown[] = [];
  const log = {
    error: (...args: unknown[]) => errors.push(args),
    info: () => {},
    warn: () => {},
  } as unknown as import('fastify').FastifyBaseLogger;
  const cache = new PageCache({ maxBytes: 1_000_000 });
  const pages = createPageService({
    renderer: { buildId: 'b1', render },
    cache,
    policyFor: (hashes) => `script-src 'self' ${hashes.scriptHashes.join(' ')}`,
    trusted: options.trusted ?? (() => true),
    shellHtml: SHELL,
    log,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  app = Fastify();
  app.get('/*', (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const payload = path.endsWith('/_payload.json');
    const key = payload ? path.slice(0, -'/_payload.json'.length) || '/' : path;
    return pages.answer(request, reply, key, payload ? 'payload' : 'document');
  });
  await app.ready();
  return { app, cache, errors, pages };
}

describe('pages rendered on request', () => {
  it('answers the document with its ETag, its own CSP and public revalidation, then 304 for that ETag', async () => {
    let renders = 0;
    const { app } = await serve(async (path) => {
      renders += 1;
      return documentOf(path, 'Hello');
    });
    const first = await app.inject('/campaign/1');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('Hello');
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(first.headers['x-page-cache']).toBe('miss');
    expect(first.headers['content-security-policy']).toMatch(/^script-src 'self' 'sha256-[^']+'$/);
    const etag = String(first.headers.etag);
    const again = await app.inject({ url: '/campaign/1', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['x-page-cache']).toBe('hit');
    const payload = await app.inject('/campaign/1/_payload.json');
    expect(payload.json()).toEqual({ buildId: 'b1', path: '/campaign/1', data: { id: 1, text: 'Hello' } });
    expect(payload.headers.etag).not.toBe(etag);
    // One render gave the document and the payload.
    expect(renders).toBe(1);
  });

  it('answers a page the loader says does not exist with the shell and its status, kept nowhere', async () => {
    let renders = 0;
    const { app } = await serve(async () => {
      renders += 1;
      throw Object.assign(new Error('Campaign 9 does not exist.'), { statusCode: 404 });
    });
    for (let i = 0; i < 2; i++) {
      const answer = await app.inject('/campaign/9');
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toBe(SHELL.toString());
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    expect((await app.inject('/campaign/9/_payload.json')).statusCode).toBe(404);
    expect(renders).toBe(3);
  });

  it('serves the cached copy marked stale when rendering fails, and the 500 page when there is none', async () => {
    let down = false;
    // The database down takes the listener's connection with it: the cache is not trusted, every request
    // renders, and a failed render falls back to the copy.
    const { app, errors } = await serve(
      async (path) => {
        if (down) throw new Error('connect ECONNREFUSED');
        return documentOf(path, 'Cached');
      },
      { trusted: () => !down },
    );
    expect((await app.inject('/campaign/1')).statusCode).toBe(200);
    down = true;
    const stale = await app.inject('/campaign/1');
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toContain('Cached');
    expect(stale.headers['x-page-cache']).toBe('stale');
    expect(stale.headers['cache-control']).toBe('no-cache');
    const none = await app.inject('/campaign/2');
    expect(none.statusCode).toBe(500);
    expect(none.body).toBe(SHELL.toString());
    expect(errors).toHaveLength(1);
  });

  it('logs a failing page once, not once per request, and again only after it rendered', async () => {
    let fail = true;
    const { app, errors, pages } = await serve(async (path) => {
      if (fail) throw new Error('boom');
      return documentOf(path, 'ok');
    });
    for (let i = 0; i < 5; i++) expect((await app.inject('/campaign/3')).statusCode).toBe(500);
    expect((await app.inject('/campaign/4')).statusCode).toBe(500);
    expect(errors).toHaveLength(2);
    expect(pages.lastFailure()).toBe('/campaign/4: boom');
    fail = false;
    expect((await app.inject('/campaign/3')).statusCode).toBe(200);
    expect(pages.lastFailure()).toBeNull();
  });

  it('gives up a render past its time limit, and answers at once when the queue is full', async () => {
    const never = new Promise<RenderedDocument>(() => {});
    const { app, pages } = await serve(
      async (path) => (path === '/campaign/slow' ? never : documentOf(path, 'quick')),
      { limits: { concurrency: 1, maxQueued: 1, timeoutMs: 200 }, trusted: () => false },
    );
    const slow = app.inject('/campaign/slow');
    const queued = app.inject('/campaign/quick');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pages.load()).toEqual({ active: 1, queued: 1 });
    const refused = await app.inject('/campaign/other');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect((await slow).statusCode).toBe(503);
    // The slow page let the next one through once its time was up.
    const quick = await queued;
    expect(quick.statusCode).toBe(200);
    expect(quick.body).toContain('quick');
  });
});

describe('keys and ETags', () => {
  it('key a page by its path, and the landing page by its cursor too', () => {
    expect(pageKey('/campaign/1/', new URLSearchParams('utm=x'))).toBe('/campaign/1');
    expect(pageKey('/', new URLSearchParams('after=c2&utm=x'))).toBe('/?after=c2');
    expect(pageKey('/', new URLSearchParams('utm=x'))).toBe('/');
    expect(pageKey('/login', new URLSearchParams('after=c2'))).toBe('/login');
  });

  it('match If-None-Match weakly, in a list, or with *', () => {
    expect(matchesEtag('"a"', '"a"')).toBe(true);
    expect(matchesEtag('W/"a"', '"a"')).toBe(true);
    expect(matchesEtag('"b", "a"', '"a"')).toBe(true);
    expect(matchesEtag('*', '"a"')).toBe(true);
    expect(matchesEtag('"b"', '"a"')).toBe(false);
    expect(matchesEtag(undefined, '"a"')).toBe(false);
  });
});
