/**
 * The app starts in parts (src/main.tsx): the entry imports React, then the machines, then the views, each
 * with `import()` and evaluated in a task of its own. A browser learns of a dynamic import only when it runs, so
 * one part's chunk would be requested only after the part before it was evaluated: on a slow connection, a
 * round trip each. This plugin preloads every chunk of the three parts from the HTML (`modulepreload`, beside
 * the entry's own), and `startKeys` tells the build's other readers of the manifest (the prerendered pages'
 * preloads, the size budget, the bench) that these chunks are part of every first load.
 */
import type { Plugin } from 'vite';

/** What src/main.tsx imports dynamically, in order: build-manifest keys (paths from the project's root). */
export const START_MODULES: readonly string[] = [
  'node_modules/react-dom/client.js',
  'src/platform/app.ts',
  'src/start.tsx',
];

interface ManifestChunk {
  readonly file: string;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
}

/**
 * `key` and every chunk it imports statically, directly or not, added to `seen` (which it returns). The chunks
 * are a Vite build manifest's (keys are source paths, `imports` name keys) or a Rollup bundle's (keys and
 * `imports` are file names): the walk is the same.
 */
export function staticImports(
  chunks: Readonly<Record<string, { readonly imports?: readonly string[] }>>,
  key: string,
  seen: Set<string> = new Set(),
): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of chunks[key]?.imports ?? []) staticImports(chunks, imported, seen);
  return seen;
}

/**
 * The manifest keys every first load evaluates before any page's own chunk: the entry with its static imports,
 * and each start part with its own. Throws if a start part has no chunk (START_MODULES out of step with
 * src/main.tsx).
 */
export function startKeys(manifest: Readonly<Record<string, ManifestChunk>>): Set<string> {
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('The build manifest has no entry chunk.');
  const keys = staticImports(manifest, entry);
  for (const module of START_MODULES) {
    if (!manifest[module])
      throw new Error(`The build has no chunk for ${module}, which src/main.tsx imports.`);
    staticImports(manifest, module, keys);
  }
  return keys;
}

interface BundleChunk {
  readonly type: 'chunk' | 'asset';
  readonly fileName: string;
  readonly facadeModuleId?: string | null;
  readonly imports?: readonly string[];
}

/** The files of the start parts' chunks and of the chunks they import, less those the entry imports itself. */
export function startPreloads(
  bundle: Readonly<Record<string, BundleChunk>>,
  root: string,
  entryFile: string,
): string[] {
  const loaded = staticImports(bundle, entryFile);
  const wanted = new Set<string>();
  for (const module of START_MODULES) {
    const chunk = Object.values(bundle).find(
      (item) => item.type === 'chunk' && item.facadeModuleId === `${root}/${module}`,
    );
    if (!chunk) throw new Error(`The build has no chunk for ${module}, which src/main.tsx imports.`);
    staticImports(bundle, chunk.fileName, wanted);
  }
  return [...wanted].filter((file) => !loaded.has(file));
}

/** Adds a `modulepreload` for every chunk of the start parts to the build's `index.html`. */
export function startChunks(): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'campaign-web:start-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk) return [];
        return startPreloads(bundle, root, chunk.fileName).map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
          injectTo: 'head',
        }));
      },
    },
  };
}
