/**
 * One page's HTML document: the SPA shell with the page's markup, title, description, page chunk preloaded and
 * payload inlined (`renderDocument`), which the server's render bundle (build/renderEntry.ts) then gives its
 * head tags and arranges for its first paint. Pure string work on the build's files: it runs in the server.
 */
import { pageFileOf } from '../core/pages.ts';
import { INLINE_PAYLOAD_ID, type PagePayload, serializeInlinePayload } from '../core/payload.ts';
import { routes } from '../core/routes.ts';
import { LOW_PRIORITY } from './scriptPriority.ts';
import { startKeys, staticImports } from './startChunks.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface DocumentParts {
  readonly html: string;
  readonly title: string;
  readonly description: string | null;
  readonly payload: PagePayload;
  /** Files (under the base) to `modulepreload`: the page's chunk and what it imports. */
  readonly preload: readonly string[];
  /**
   * The mode the page forces (its route's `colorMode`), written on `<html>` so that it holds with JavaScript
   * off too; the boot script would set the same attribute before the first paint.
   */
  readonly colorMode?: 'light' | 'dark';
}

/**
 * The shell with one page in it. Only `<title>`, the description, `#root`'s content and a few added tags
 * change: every inline script of the shell stays byte for byte as it is (the server hashes them for CSP).
 * The "needs JavaScript" notice goes, since this page works without it.
 */
export function renderDocument(shell: string, parts: DocumentParts, base = '/'): string {
  const replaceOnce = (text: string, pattern: RegExp, replacement: string, what: string) => {
    if (!pattern.test(text)) throw new Error(`The HTML shell has no ${what} to prerender into.`);
    return text.replace(pattern, () => replacement);
  };
  let out = replaceOnce(
    shell,
    /<title>[^<]*<\/title>/,
    `<title>${escapeHtml(parts.title)}</title>`,
    '<title>',
  );
  if (parts.description !== null) {
    out = replaceOnce(
      out,
      /<meta name="description" content="[^"]*"\s*\/?>/,
      `<meta name="description" content="${escapeHtml(parts.description)}" />`,
      'description',
    );
  }
  // React puts the resource hints of the page (the hero image's preload) first in its markup; they belong in
  // <head>, and `#root` must hold exactly what hydration renders.
  const hints = /^(?:<link [^>]*\/>)+/.exec(parts.html)?.[0] ?? '';
  const links = parts.preload
    .map(
      (file) =>
        `<link rel="modulepreload" ${LOW_PRIORITY} crossorigin href="${escapeHtml(`${base}${file}`)}">`,
    )
    .join('');
  // No frame before the whole page is parsed: a slow CPU's parser yields mid-page, and a page painted in pieces
  // grows as the rest arrives (the header's controls moved: a layout shift on every slow load). The payload
  // block follows `#root`, so it is parsed once the page is; browsers without `rel=expect` ignore the link.
  const wholePage = `<link rel="expect" href="#${INLINE_PAYLOAD_ID}" blocking="render">`;
  out = replaceOnce(out, /<\/head>/, `${hints}${links}${wholePage}</head>`, '</head>');
  if (parts.colorMode !== undefined)
    out = replaceOnce(out, /<html\b/, `<html data-color-mode="${parts.colorMode}"`, '<html>');
  // The payload block is data, never run: `type="application/json"`, with `<` escaped inside.
  const payload = `<script type="application/json" id="${INLINE_PAYLOAD_ID}">${serializeInlinePayload(parts.payload)}</script>`;
  const markup = parts.html.slice(hints.length);
  out = replaceOnce(
    out,
    /<div id="root">[\s\S]*?<\/div>/,
    `<div id="root">${markup}</div>${payload}`,
    '#root',
  );
  return out.replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
}

export interface ViteManifestChunk {
  readonly file: string;
  readonly imports?: readonly string[];
}

/** The mode a route forces, if any (see `RouteRecord.colorMode`). */
export function forcedColorModeOf(route: string): 'light' | 'dark' | undefined {
  return routes.find((record) => record.name === route)?.colorMode;
}

/** The page's chunk (core/pages.ts names its file) and its static imports, minus what the entry already loads. */
export function chunkFiles(manifest: Record<string, ViteManifestChunk>, route: string): string[] {
  const file = pageFileOf(route);
  const key = Object.keys(manifest).find((name) => name.endsWith(`src/pages/${file}.tsx`));
  if (!file || !key) return [];
  // What the shell preloads already: the entry's chunks and the start parts' (build/startChunks.ts).
  const loaded = startKeys(manifest);
  return [...staticImports(manifest, key)]
    .filter((name) => !loaded.has(name))
    .map((name) => manifest[name]?.file ?? '');
}
