/**
 * Prerendered pages' payloads in the browser: the copy inlined in the HTML (read once at start, for
 * hydration), `_payload.json` for client navigations, and the preload of the links on screen. The one place
 * the app reads payloads; anything unexpected is `null`, and the caller falls back to the page's loader.
 */
import {
  INLINE_PAYLOAD_ID,
  isPrerendered,
  type PagePayload,
  parsePayload,
  payloadUrl,
} from '../../core/payload';
import { config } from '../config';

const REQUEST_TIMEOUT_MS = 10_000;
// Stryker disable next-line StringLiteral: The fallback applies only where import.meta.env is missing (the source run outside Vite; Vite, Vitest and the prerender's Vite SSR always define BASE_URL). And payloadUrl strips a trailing slash from the base (`base.replace(/\/$/, '')`), so a base of '' and one of '/' give the same URL ('/campaign/1/_payload.json?b1'): equivalent.
// Stryker disable next-line OptionalChaining: import.meta.env is defined wherever this module runs: Vite in the browser build and dev server, Vite SSR for the prerender, Vitest for the tests. The `?.` only guards running the source outside Vite, which nothing does; no run can tell the two apart.
const base = import.meta.env?.BASE_URL ?? '/';

/** Payloads asked for in this page's life, by URL: a preload and the navigation after it share one request. */
const requests = new Map<string, Promise<PagePayload | null>>();

async function fetchPayload(
  url: string,
  expected: { buildId: string; path: string },
): Promise<PagePayload | null> {
  try {
    // The build id in the URL keeps builds apart, so the HTTP cache may answer without asking.
    const response = await fetch(url, {
      cache: 'force-cache',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    // Stryker disable next-line StringLiteral: The fallback for an answer without a content-type header only has to not include 'json'; 'Stryker was here!' does not either, so such an answer is refused ('not JSON', then null) with and without the mutant.
    if (!(response.headers.get('content-type') ?? '').includes('json')) throw new Error('not JSON');
    const payload = parsePayload(await response.json(), expected);
    if (!payload) throw new Error(`not a payload of build ${expected.buildId} for ${expected.path}`);
    return payload;
  } catch (error) {
    console.warn('[campaign-web] Cannot load payload', url, error instanceof Error ? error.message : error);
    return null;
  }
}

/** The payload of a prerendered page of this build, or `null` when it cannot be had (then: the loader). */
export function loadPayload(path: string, buildId: string): Promise<PagePayload | null> {
  const url = payloadUrl(path, buildId, base);
  let request = requests.get(url);
  if (!request) {
    request = fetchPayload(url, { buildId, path });
    requests.set(url, request);
    // A failure is not remembered: the next navigation may try again.
    void request.then((payload) => {
      if (payload === null) requests.delete(url);
    });
  }
  return request;
}

/** The app machine's `preloadPayloads`: the payloads of the prerendered pages the links on screen open. */
export function preloadPayloads(prerendered: readonly string[], buildId: string): void {
  const here = window.location.pathname;
  const paths = new Set<string>();
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[href^="/"]')) {
    const url = new URL(link.href);
    if (url.origin !== window.location.origin || url.pathname === here) continue;
    if (url.search === '' && isPrerendered(url.pathname, prerendered)) paths.add(url.pathname);
  }
  for (const path of paths) void loadPayload(path, buildId);
}

/**
 * The payload inlined in a prerendered document, if it is this build's and this page's; `null` otherwise
 * (an SPA shell, or HTML that does not belong to this path), and the app then starts as an SPA.
 */
export function readInlinePayload(): PagePayload | null {
  const block = document.getElementById(INLINE_PAYLOAD_ID);
  if (block?.getAttribute('type') !== 'application/json') return null;
  try {
    // Stryker disable next-line OptionalChaining: This line runs only when the check above passed, i.e. `block?.getAttribute('type')` was 'application/json', which needs a block: here block is never null. The `?.` is there because TypeScript does not narrow `block` through that optional call.
    // Stryker disable next-line StringLiteral: The fallback is for a null textContent, which an element never has (only documents and doctypes do): the block is a <script> element, whose textContent is always a string. And were it used, 'Stryker was here!' would fail JSON.parse as '' does, and the catch returns null either way.
    return parsePayload(JSON.parse(block?.textContent ?? ''), {
      buildId: config.build.id,
      path: `${window.location.pathname}${window.location.search}`,
    });
  } catch {
    return null;
  }
}
