/**
 * Per-page payloads of prerendered pages: what the build writes to `dist/{path}/_payload.json` and inlines
 * into that page's HTML, and the pure checks the client makes before trusting one.
 */
import type { FormState } from './formState.ts';
import { withoutTrailingSlash } from './routeRules.ts';

/** What a prerendered page was built with. `data` is absent for a page without a loader. */
export interface PagePayload {
  readonly buildId: string;
  /** The page's path, without query or trailing slash (`/campaign/1`). */
  readonly path: string;
  readonly data?: unknown;
}

/** The id of the `<script type="application/json">` block that carries the payload inside the HTML. */
export const INLINE_PAYLOAD_ID = '__CAMPAIGN_PAYLOAD__';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A payload for this build and this path, or `null`: another build's payload (a cache that mixed builds),
 * one for another page, or anything that is not a payload (an HTML error page, a truncated body) is never
 * shown; the caller falls back to the page's loader.
 */
export function parsePayload(raw: unknown, expected: { buildId: string; path: string }): PagePayload | null {
  if (!isRecord(raw) || raw.buildId !== expected.buildId || typeof raw.path !== 'string') return null;
  if (withoutTrailingSlash(raw.path) !== withoutTrailingSlash(expected.path)) return null;
  return 'data' in raw
    ? { buildId: raw.buildId, path: raw.path, data: raw.data }
    : { buildId: raw.buildId, path: raw.path };
}

/**
 * Whether the server renders this path with a payload beside it (the manifest's list of paths and `/**`
 * prefixes, the route rules with `prerender`; trailing slashes do not matter).
 */
export function isPrerendered(pathname: string, prerendered: readonly string[] | null): boolean {
  const path = withoutTrailingSlash(pathname);
  return (
    prerendered?.some((entry) =>
      entry.endsWith('/**')
        ? path.startsWith(`${entry.slice(0, -3)}/`) && path.length > entry.length - 2
        : entry === path,
    ) ?? false
  );
}

/**
 * Where a page's payload lives: beside its HTML, with the build id as the query (as Nuxt does), so an HTTP
 * cache can never answer with another build's file. The page's own query is dropped.
 */
// Stryker disable next-line StringLiteral: The default base is only used as `base.replace(/\/$/, '')`, which gives '' for both '/' and ''.
export function payloadUrl(pathname: string, buildId: string, base = '/'): string {
  const path = withoutTrailingSlash(pathname);
  const dir = path === '/' ? '' : path;
  return `${base.replace(/\/$/, '')}${dir}/_payload.json?${encodeURIComponent(buildId)}`;
}

/**
 * The payload as text safe inside `<script type="application/json">`: `<`, `>` and `&` are escaped so that
 * no `</script>` or `<!--` in the data can end the block, and U+2028/2029 so older parsers agree.
 * `JSON.parse` of the block's text gives the payload back unchanged.
 */
export function serializeInlinePayload(payload: PagePayload): string {
  return serializeInlineJson(payload);
}

/** Any JSON value as text safe inside `<script type="application/json">` (see serializeInlinePayload). */
export function serializeInlineJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The build-time renderer's contract (build/prerenderPages.ts loads the module vite.config.ts names,
 * which exports `renderPage`; src/prerender.tsx implements it). It lives here, beside the payload it carries,
 * because src/ may not import build/ and build/ need not import src/.
 */
export interface RenderedPage {
  /** The markup of `#root`. */
  readonly html: string;
  readonly title: string;
  /** `null`: the app's own description. */
  readonly description: string | null;
  /** What `_payload.json` holds and the HTML inlines: `{ buildId, path, data? }`. */
  readonly payload: PagePayload;
  /** The route, whose page chunk the HTML preloads (the browser needs it before it can hydrate). */
  readonly route: string;
  /** The picture a link preview shows (Open Graph), when the page has one: a campaign's. */
  readonly image?: PreviewImage;
}

/** A page's preview picture: a same-origin URL of the image endpoint and the size it is rendered at. */
export interface PreviewImage {
  readonly url: string;
  readonly width: number;
  readonly height: number;
}
/** A whole HTML document the server renders on request (build/renderEntry.ts), and its payload. */
export interface RenderedDocument {
  /** The document, ready to send: the shell with the page, its head tags and its payload inline. */
  readonly html: string;
  readonly payload: PagePayload;
  readonly route: string;
}

/**
 * What the server's render bundle (built from build/renderEntry.ts into `dist/.render/render.mjs`) exports:
 * `createDocumentRenderer`, which reads the build once and renders documents on request. The page loaders'
 * `/api/…` requests go to `fetch`.
 */
export interface DocumentRendererOptions {
  /** The build (absolute): its shell, stylesheets and Vite manifest. */
  readonly distDir: string;
  /** PUBLIC_ORIGIN, for the canonical link and Open Graph's absolute URLs. */
  readonly origin: string | undefined;
  /** Answers the loaders' same-origin requests (`/api/campaigns/1`). */
  readonly fetch: (path: string, init?: RequestInit) => Promise<Response>;
}

export interface DocumentRenderer {
  /** The build id the bundle was built with (its pages' payloads carry it). */
  readonly buildId: string;
  /** Renders `path` (a pathname, or `/?after=…` for the landing page's later pages). */
  render(path: string, formState?: FormState): Promise<RenderedDocument>;
}

export interface PageRenderer {
  /** With `formState`, the page as the server answers a failed form post (the failure template). */
  renderPage(path: string, buildId: string, formState?: FormState): Promise<RenderedPage>;
}
