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

/** Whether the build prerendered this path (the manifest's list; trailing slashes do not matter). */
export function isPrerendered(pathname: string, prerendered: readonly string[] | null): boolean {
  return prerendered?.includes(withoutTrailingSlash(pathname)) ?? false;
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
export interface PageRenderer {
  /** With `formState`, the page as the server answers a failed form post (the failure template). */
  renderPage(path: string, buildId: string, formState?: FormState): Promise<RenderedPage>;
}
