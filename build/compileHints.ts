/**
 * V8 compiles a function when it is first called, on the main thread, unless the script asks otherwise. A
 * script whose first line is `//# allFunctionsCalledOnLoad` (V8's explicit compile hints, Chrome 136) has every
 * function compiled eagerly, on a background thread while the file streams in. That suits the chunks whose
 * code runs soon after they load: the start's chunks (every first load evaluates them, and a navigation then
 * runs their update paths: React DOM's commit of a new page, XState's transitions, the address bar) and the
 * pages' chunks (fetched when their page is about to show: on hover, on focus, on the click). The rest (the
 * error reporter, the tooltips, web-vitals) loads for one feature that may never run, and stays lazy.
 *
 * So the functions a click on a prefetched link runs are compiled before the click, off the main thread
 * (docs/performance.md). Browsers without the hint read a comment.
 *
 * The line goes in front of the minified chunk, so the hidden source map gains an empty first line to match.
 */
import type { Plugin } from 'vite';
import { pageFiles } from '../core/pages.ts';
import { START_MODULES, staticImports } from './startChunks.ts';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

interface HintedChunk {
  readonly type: 'chunk' | 'asset';
  readonly fileName: string;
  readonly facadeModuleId?: string | null;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
}

/**
 * The files to hint: the entry, each start part (START_MODULES) and each page (core/pages.ts), with the chunks
 * they import statically. `root` is the project's root, as the chunks' facade module ids begin with it.
 */
export function hintedChunks(bundle: Readonly<Record<string, HintedChunk>>, root: string): Set<string> {
  const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
  const facades = new Set([
    ...START_MODULES.map((module) => `${root}/${module}`),
    ...Object.values(pageFiles).map((name) => `${root}/src/pages/${name}.tsx`),
  ]);
  const hinted = new Set<string>();
  for (const chunk of chunks) {
    if (chunk.isEntry || (chunk.facadeModuleId && facades.has(chunk.facadeModuleId)))
      staticImports(bundle, chunk.fileName, hinted);
  }
  return hinted;
}

/** The chunk's code with the hint in front. */
export function withCompileHint(code: string): string {
  return code.startsWith(COMPILE_HINT) ? code : `${COMPILE_HINT}${code}`;
}

/** A source map (JSON) of a chunk, its generated code one line further down: an empty first line. */
export function shiftedMap(json: string): string {
  const map = JSON.parse(json) as { mappings: string };
  return JSON.stringify({ ...map, mappings: `;${map.mappings}` });
}

export function compileHints(): Plugin {
  let root = '';
  return {
    name: 'campaign-web:compile-hints',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    // After Vite's own `generateBundle`, which rewrites the chunks that import dynamically (their preload
    // lists) and their maps. The written map is the `.map` asset's source, as Vite's rewrite keeps it.
    generateBundle: {
      order: 'post',
      handler(_outputOptions, bundle) {
        for (const file of hintedChunks(bundle, root)) {
          const chunk = bundle[file];
          if (chunk?.type !== 'chunk' || chunk.code.startsWith(COMPILE_HINT)) continue;
          chunk.code = withCompileHint(chunk.code);
          const map = bundle[`${file}.map`];
          if (map?.type === 'asset') map.source = shiftedMap(String(map.source));
        }
      },
    },
  };
}
