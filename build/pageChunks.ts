/**
 * `virtual:page-chunks`: the URL of each route's page chunk, for the page registry's retry.
 *
 * Why: Chromium (seen in 150) keeps a failed dynamic `import()` in its module map, so importing the same URL
 * again rejects at once without touching the network. A retry that really retries must import a URL the module
 * map has not seen: the same chunk with a query (`?retry=1`). The chunk's hashed file name is known only while
 * the bundle renders, so the module holds a marker per page, and `renderChunk` writes in the file name of the
 * chunk whose facade is that page, as the chunk graph shows it (with the bundler's hash placeholder, which it
 * fills in afterwards like any other reference). Emitting the pages as chunks of their own would say the same,
 * but it turns them into entries and changes how the shared code is split (the first load grew 9 kB).
 * In `vite dev`, and in the prerender step's server-side render (which never retries), a page's source URL
 * serves the same purpose.
 *
 * The pages are the page table's (core/pages.ts), which src/pages/registry.ts imports lazily, one per route.
 */
import { resolve } from 'node:path';
import MagicString from 'magic-string';
import type { Plugin } from 'vite';
import { pageFiles } from '../core/pages.ts';

const PUBLIC_ID = 'virtual:page-chunks';
const RESOLVED_ID = `\0${PUBLIC_ID}`;
const MARKER = '__campaign_web_page_chunk__';

export function pageChunks(options: { readonly pagesDir?: string } = {}): Plugin {
  let root = process.cwd();
  let base = '/';
  let isBuild = false;
  const pagesDir = () => resolve(root, options.pagesDir ?? 'src/pages');
  return {
    name: 'campaign-web:page-chunks',
    configResolved(resolved) {
      root = resolved.root;
      base = resolved.base;
      isBuild = resolved.command === 'build';
    },
    resolveId(id) {
      return id === PUBLIC_ID ? RESOLVED_ID : undefined;
    },
    load(id, loadOptions) {
      if (id !== RESOLVED_ID) return undefined;
      const entries = Object.values(pageFiles).map((name) => {
        const url =
          isBuild && !loadOptions?.ssr
            ? `${MARKER}${name}__`
            : `${base}${resolve(pagesDir(), `${name}.tsx`)
                .slice(root.length + 1)
                .replaceAll('\\', '/')}`;
        return `${JSON.stringify(name)}: ${JSON.stringify(url)}`;
      });
      return `export default { ${entries.join(', ')} };\n`;
    },
    renderChunk(code, chunk, _outputOptions, meta) {
      if (!code.includes(MARKER)) return null;
      const fileOf = new Map<string, string>();
      for (const other of Object.values(meta.chunks)) {
        if (other.facadeModuleId) fileOf.set(other.facadeModuleId, other.fileName);
      }
      const edited = new MagicString(code);
      for (const match of code.matchAll(new RegExp(`${MARKER}([\\w-]+)__`, 'g'))) {
        const page = resolve(pagesDir(), `${match[1]}.tsx`);
        const fileName = fileOf.get(page);
        if (!fileName) this.error(`No chunk for the page ${page} (is it imported dynamically?)`);
        edited.overwrite(match.index, match.index + match[0].length, `${base}${fileName}`);
      }
      return {
        code: edited.toString(),
        map: edited.generateMap({ hires: 'boundary', source: chunk.fileName }),
      };
    },
  };
}
