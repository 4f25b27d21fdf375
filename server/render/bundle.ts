/**
 * Loads the render bundle the build wrote (`dist/.render/render.mjs`, vite.render.config.ts from
 * build/renderEntry.ts): the app's renderer, as built, so the server never imports the app's source. A build
 * without it (an older build, a test's folder of files) renders nothing: its pages get the SPA shell.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentRenderer, DocumentRendererOptions } from '../../core/payload.ts';

/** Where the build puts the bundle, relative to `dist/`. */
export const RENDER_BUNDLE = '.render/render.mjs';

interface RenderBundle {
  createDocumentRenderer(options: DocumentRendererOptions): Promise<DocumentRenderer>;
}

export async function loadRenderer(
  distDir: string,
  options: Omit<DocumentRendererOptions, 'distDir'>,
): Promise<DocumentRenderer | undefined> {
  const file = path.join(distDir, RENDER_BUNDLE);
  if (!existsSync(file)) return undefined;
  const bundle = (await import(pathToFileURL(file).href)) as RenderBundle;
  return bundle.createDocumentRenderer({ ...options, distDir });
}
