/**
 * The server's render bundle: vite.render.config.ts builds this module, with the app it renders (src/prerender.tsx,
 * its pages, icons and styles), into `dist/.render/render.mjs`, and the production server loads it from there
 * (server/render/bundle.ts), so the server never imports the app's source. `createDocumentRenderer` reads the
 * build once (the shell, its stylesheets, the Vite manifest) and renders a document per call: the page through
 * the same route table, loader, app machine and components as the browser (src/prerender.tsx), then the shell
 * around it (./document.ts), its canonical and Open Graph tags (./pageMeta.ts) and its first-paint order
 * (./firstPaint.ts). The loaders' same-origin requests (`/api/…`) go to the `fetch` the server gives.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FormState } from '../core/formState.ts';
import type { DocumentRenderer, DocumentRendererOptions, RenderedDocument } from '../core/payload.ts';
import { renderPage } from '../src/prerender.tsx';
import { chunkFiles, forcedColorModeOf, renderDocument, type ViteManifestChunk } from './document.ts';
import { arrangeForFirstPaint, readStylesheets } from './firstPaint.ts';
import { withPageMeta } from './pageMeta.ts';

declare const __BUILD_ID__: string;
/** The client build's `.vite/manifest.json`, as an object literal (vite.render.config.ts). */
declare const __CLIENT_MANIFEST__: Record<string, ViteManifestChunk>;

/** The handler of the render under way: each renderer's own, even with several servers in one process. */
const handlers = new AsyncLocalStorage<DocumentRendererOptions['fetch']>();
let patched = false;

/** Sends a render's relative requests (`/api/campaigns/1`) to its server's handler; any other URL as it was. */
function routeRelativeFetch(): void {
  if (patched) return;
  patched = true;
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const handler = handlers.getStore();
    return handler && typeof input === 'string' && input.startsWith('/')
      ? handler(input, init)
      : original(input, init);
  };
}

export async function createDocumentRenderer(options: DocumentRendererOptions): Promise<DocumentRenderer> {
  const { distDir, origin } = options;
  const base = '/';
  const shell = await readFile(join(distDir, '200.html'), 'utf8');
  const manifest = __CLIENT_MANIFEST__;
  const styles = await readStylesheets(distDir, base, shell);
  const preloads = new Map<string, string[]>();
  routeRelativeFetch();
  const buildId = __BUILD_ID__;
  return {
    buildId,
    async render(path: string, formState?: FormState): Promise<RenderedDocument> {
      const page = await handlers.run(options.fetch, () => renderPage(path, buildId, formState));
      let preload = preloads.get(page.route);
      if (!preload) {
        preload = chunkFiles(manifest, page.route);
        preloads.set(page.route, preload);
      }
      const colorMode = forcedColorModeOf(page.route);
      const document = renderDocument(shell, { ...page, preload, colorMode }, base);
      const pathname = path.split('?')[0] ?? path;
      const html = arrangeForFirstPaint(
        formState ? document : withPageMeta(document, { path: pathname, image: page.image, origin }),
        styles,
      );
      return { html, payload: page.payload, route: page.route };
    },
  };
}
