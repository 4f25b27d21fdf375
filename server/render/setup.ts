/**
 * The rendered pages of the production server, put together: the render bundle (./bundle.ts), the data its
 * loaders read (the API plugin on its own Fastify instance, asked in-process with `inject`: no network, no
 * rate limit, no cookie, so nothing of a visitor's session can reach a page every visitor shares), the page
 * cache (./cache.ts), the listener that keeps it right (./listener.ts) and the page and sitemap answers.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Accounts } from '../../api/accounts.ts';
import type { ApiConfig } from '../../api/config.ts';
import type { OpenDatabase } from '../../api/database/open.ts';
import { apiPlugin } from '../../api/plugin.ts';
import { FORM_PLACEHOLDERS } from '../../core/formState.ts';
import type { DocumentRenderer } from '../../core/payload.ts';
import { hashesOfHtml } from '../plugins/inlineHashes.ts';
import { consoleLogger } from '../plugins/requestLog.ts';
import { CACHE, type PolicyInputs } from '../plugins/securityHeaders.ts';
import { loadRenderer } from './bundle.ts';
import { PageCache } from './cache.ts';
import { type ListenerStatus, type PageListener, startPageListener } from './listener.ts';
import {
  createPageService,
  matchesEtag,
  PAGE_CACHE_CONTROL,
  type PageService,
  type RenderLimits,
} from './pages.ts';
import { sitemapEntry, sitemapFile } from './sitemap.ts';
import { tagsOfNotification } from './tags.ts';

/** PAGE_CACHE_BYTES's default: 64 MB of documents and payloads (a campaign page is about 60 kB with both). */
export const PAGE_CACHE_BYTES = 64 * 1024 * 1024;

export interface PageOptions {
  /** The most bytes of rendered pages kept in memory. */
  cacheBytes?: number;
  limits?: RenderLimits;
  /** Past this many URLs the sitemap is an index (tests lower it). */
  sitemapLimit?: number;
}

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/** The render bundle, loaded before the server's headers are made: its sign-in failure page is hashed for CSP. */
export interface LoadedRenderer {
  renderer: DocumentRenderer;
  /** `/login` as a failed form post answers it (api/forms.ts), with the placeholders in. */
  loginTemplate: string;
  /** The same for the sign-up mode of `/login` (`?mode=signup`), also its page without JavaScript. */
  signUpTemplate: string;
  /** Both templates, as the form routes take them (server/routes/api.ts). */
  templates: { loginTemplate: string; signUpTemplate: string };
  /** The inline hashes of both templates, which the server's CSP allows. */
  templateHashes: PolicyInputs;
  /** The origin the pages name as theirs (canonical links, the sitemap). */
  origin: string | undefined;
  /** Where the loaders' requests go, once the API is up (`connect`). */
  connect(fetch: Fetch): void;
}

/** The site's origin the build was given (`dist/.build-env.json`, build/siteOrigin.ts), if any. */
async function originOfBuild(distDir: string): Promise<string | undefined> {
  try {
    const env = JSON.parse(await readFile(path.join(distDir, '.build-env.json'), 'utf8')) as {
      publicOrigin?: unknown;
    };
    return typeof env.publicOrigin === 'string' ? env.publicOrigin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads the render bundle. Its pages say they live at `given` (the server's `PUBLIC_ORIGIN`), or else at the origin
 * the build was made for, so canonical links and the sitemap stay absolute on a server started without it.
 */
export async function loadPages(
  distDir: string,
  given: string | undefined,
): Promise<LoadedRenderer | undefined> {
  const origin = given ?? (await originOfBuild(distDir));
  let target: Fetch = async () => {
    throw new Error('The API is not up yet.');
  };
  const renderer = await loadRenderer(distDir, { origin, fetch: (path, init) => target(path, init) });
  if (!renderer) return undefined;
  const login = await renderer.render('/login', { form: 'login', ...FORM_PLACEHOLDERS });
  const signUp = await renderer.render('/login', { form: 'signup', ...FORM_PLACEHOLDERS });
  return {
    renderer,
    loginTemplate: login.html,
    signUpTemplate: signUp.html,
    templates: { loginTemplate: login.html, signUpTemplate: signUp.html },
    templateHashes: mergeHashes(hashesOfHtml(login.html), hashesOfHtml(signUp.html)),
    origin,
    connect: (fetch) => {
      target = fetch;
    },
  };
}

/** The hashes a page's CSP allows: the build's and the page's own. */
export function mergeHashes(a: PolicyInputs, b: PolicyInputs): PolicyInputs {
  const tidy = (x: readonly string[], y: readonly string[]) => [...new Set([...x, ...y])].sort();
  return {
    scriptHashes: tidy(a.scriptHashes, b.scriptHashes),
    styleHashes: tidy(a.styleHashes, b.styleHashes),
    styleAttributeHashes: tidy(a.styleAttributeHashes, b.styleAttributeHashes),
  };
}

export { hashesOfHtml };

export interface RenderedPages {
  pages: PageService;
  /** What the site's routes take (server/routes/site.ts): the pages, the sitemap, the sign-up page. */
  site: { pages: PageService; sitemap?: RenderedPages['sitemap']; signUpTemplate: string };
  sitemap?: (request: FastifyRequest, reply: FastifyReply, name: string) => Promise<FastifyReply>;
  cache: PageCache;
  /** What /healthz says of the pages. */
  health(): Promise<PagesHealth>;
}

export interface PagesHealth {
  /** `ok`, or why pages may be served stale or fail. */
  status: 'ok' | 'degraded';
  database: string;
  listener: string;
  cache: ReturnType<PageCache['stats']>;
  renders: { active: number; queued: number };
  lastRenderFailure: string | null;
}

export interface SetUpPagesOptions {
  loaded: LoadedRenderer;
  database: OpenDatabase;
  config: ApiConfig;
  accounts: Accounts;
  shellHtml: Buffer;
  policyFor: (page: PolicyInputs) => string;
  origin: string | undefined;
  log: FastifyBaseLogger;
  options?: PageOptions;
}

/** Starts the data API, the cache and its listener; all are closed with `app`. */
export async function setUpPages(app: FastifyInstance, setup: SetUpPagesOptions): Promise<RenderedPages> {
  const { loaded, database, log } = setup;
  const dataApi = Fastify({ logger: false });
  await dataApi.register(apiPlugin, {
    prefix: '/api',
    db: database.db,
    config: { ...setup.config, delayMs: 0 },
    accounts: setup.accounts,
    log: consoleLogger(log),
  });
  await dataApi.ready();
  loaded.connect(async (path) => {
    const answer = await dataApi.inject({
      method: 'GET',
      url: path,
      headers: { accept: 'application/json' },
    });
    return new Response(answer.payload, {
      status: answer.statusCode,
      headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
    });
  });

  const cache = new PageCache({ maxBytes: setup.options?.cacheBytes ?? PAGE_CACHE_BYTES });
  let listening = false;
  let listener: PageListener | undefined;
  if (database.notifications) {
    listener = await startPageListener({
      source: database.notifications,
      onMessage: (text) => {
        const tags = tagsOfNotification(text);
        if (tags) cache.invalidate(tags);
        else log.warn({ payload: text }, 'a page notification that names no campaign');
      },
      onState: (on, reconnected) => {
        listening = on;
        // Notifications sent while it was away are lost: nothing cached before may be trusted.
        if (on && reconnected) cache.clear();
      },
      log: { warn: (message) => log.warn(message), info: (message) => log.info(message) },
    });
  }
  app.addHook('onClose', async () => {
    await listener?.close().catch(() => undefined);
    await dataApi.close();
  });

  const pages = createPageService({
    renderer: loaded.renderer,
    cache,
    policyFor: setup.policyFor,
    trusted: () => listening,
    shellHtml: setup.shellHtml,
    log,
    ...(setup.options?.limits ? { limits: setup.options.limits } : {}),
  });

  const { origin } = setup;
  const sitemapLimit = setup.options?.sitemapLimit;
  const sitemap = origin
    ? async (request: FastifyRequest, reply: FastifyReply, name: string) => {
        const key = `sitemap:${name}`;
        let entry = listening ? cache.get(key) : undefined;
        if (!entry) {
          const xml = await sitemapFile(database.db, origin, name, sitemapLimit);
          if (xml === null)
            return reply.code(404).header('cache-control', CACHE.never).type('text/plain').send('Not found.');
          entry = await cache.obtain(key, async () => sitemapEntry(key, xml, Date.now()), {
            keep: listening,
          });
        }
        const variant = entry.variants.document;
        reply.header('cache-control', PAGE_CACHE_CONTROL).header('etag', variant.etag);
        if (matchesEtag(request.headers['if-none-match'], variant.etag)) return reply.code(304).send();
        return reply.type(variant.contentType).send(variant.body);
      }
    : undefined;

  const databaseHealth = async (): Promise<string> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        database.db.selectFrom('campaigns').select('id').limit(1).execute(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2_000);
        }),
      ]);
      return 'ok';
    } catch (error) {
      return `unreachable: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    pages,
    ...(sitemap ? { sitemap } : {}),
    site: { pages, ...(sitemap ? { sitemap } : {}), signUpTemplate: loaded.signUpTemplate },
    cache,
    async health() {
      const status: ListenerStatus | undefined = listener?.status();
      const databaseState = await databaseHealth();
      const listenerState = !status
        ? 'none'
        : status.listening
          ? 'listening'
          : (status.reason ?? 'not listening');
      return {
        status: databaseState === 'ok' && listenerState === 'listening' ? 'ok' : 'degraded',
        database: databaseState,
        listener: listenerState,
        cache: cache.stats(),
        renders: pages.load(),
        lastRenderFailure: pages.lastFailure(),
      };
    },
  };
}
