// @vitest-environment node
// build/compileHints.ts: the chunks that run soon after they load start with V8's compile hint, and their
// hidden source maps still point at the right source.
import { SourceMapConsumer, SourceMapGenerator } from 'source-map-js';
import { describe, expect, it } from 'vitest';
import {
  COMPILE_HINT,
  compileHints,
  hintedChunks,
  shiftedMap,
  withCompileHint,
} from '../../build/compileHints';
import { START_MODULES } from '../../build/startChunks';

const root = '/project';
const [react = '', machines = '', views = ''] = START_MODULES;

/** A Rollup bundle: the entry, the three start parts, two pages with a shared chunk, a lazy chunk, an asset. */
function bundle() {
  const chunk = (fileName: string, facade: string | null, imports: string[] = [], isEntry = false) => ({
    type: 'chunk' as const,
    fileName,
    facadeModuleId: facade,
    isEntry,
    imports,
    code: `export const file = ${JSON.stringify(fileName)};\n`,
  });
  return {
    'assets/index.js': chunk('assets/index.js', `${root}/index.html`, ['assets/shared.js'], true),
    'assets/shared.js': chunk('assets/shared.js', null),
    'assets/client.js': chunk('assets/client.js', `${root}/${react}`, ['assets/index.js']),
    'assets/app.js': chunk('assets/app.js', `${root}/${machines}`, ['assets/xstate.js']),
    'assets/xstate.js': chunk('assets/xstate.js', null),
    'assets/start.js': chunk('assets/start.js', `${root}/${views}`, ['assets/app.js']),
    'assets/campaign.js': chunk('assets/campaign.js', `${root}/src/pages/campaign.tsx`, ['assets/card.js']),
    'assets/card.js': chunk('assets/card.js', `${root}/src/ui/CampaignCard.tsx`),
    'assets/login.js': chunk('assets/login.js', `${root}/src/pages/login.tsx`),
    'assets/vitals.js': chunk('assets/vitals.js', `${root}/src/platform/vitals.ts`, ['assets/webVitals.js']),
    'assets/webVitals.js': chunk('assets/webVitals.js', null),
    'assets/index.css': { type: 'asset' as const, fileName: 'assets/index.css', source: 'body{}' },
  };
}

describe('hintedChunks', () => {
  it('is the entry, the start parts and the pages, with what they import statically, and nothing lazy', () => {
    expect([...hintedChunks(bundle(), root)].sort()).toEqual(
      [
        'assets/index.js',
        'assets/shared.js',
        'assets/client.js',
        'assets/app.js',
        'assets/xstate.js',
        'assets/start.js',
        'assets/campaign.js',
        'assets/card.js',
        'assets/login.js',
      ].sort(),
    );
  });

  it('knows a page or a start part by its whole path under the root, not by its file name alone', () => {
    expect(hintedChunks(bundle(), '/elsewhere')).toEqual(new Set(['assets/index.js', 'assets/shared.js']));
  });
});

describe('withCompileHint', () => {
  it('puts the hint on a line of its own before the code, once', () => {
    const code = 'import{a}from"./a.js";a();';
    expect(withCompileHint(code)).toBe(`//# allFunctionsCalledOnLoad\n${code}`);
    expect(withCompileHint(withCompileHint(code))).toBe(withCompileHint(code));
  });
});

describe('shiftedMap', () => {
  it('moves every mapping one line down and keeps the rest of the map', () => {
    const generator = new SourceMapGenerator({ file: 'chunk.js' });
    generator.addMapping({
      generated: { line: 1, column: 7 },
      original: { line: 12, column: 2 },
      source: 'src/app.ts',
      name: 'start',
    });
    generator.setSourceContent('src/app.ts', 'const start = 1;');
    const before = generator.toString();
    const after = JSON.parse(shiftedMap(before)) as Record<string, unknown>;
    expect({ ...after, mappings: undefined }).toEqual({ ...JSON.parse(before), mappings: undefined });
    const shifted = new SourceMapConsumer(after as never);
    expect(shifted.originalPositionFor({ line: 2, column: 7 })).toEqual({
      source: 'src/app.ts',
      line: 12,
      column: 2,
      name: 'start',
    });
    expect(shifted.originalPositionFor({ line: 1, column: 7 }).source).toBeNull();
  });
});

describe('compileHints (the plugin)', () => {
  type Handler = (options: unknown, bundle: Record<string, unknown>) => void;
  function run(files: Record<string, unknown>) {
    const plugin = compileHints();
    (plugin.configResolved as (config: { root: string }) => void)({ root });
    const hook = plugin.generateBundle as { order: string; handler: Handler };
    expect(hook.order).toBe('post');
    hook.handler({}, files);
    return files as ReturnType<typeof bundle>;
  }

  it('hints the chosen chunks, shifts their maps, and leaves lazy chunks and assets as they were', () => {
    const files = bundle();
    const map = JSON.stringify({ version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA' });
    const withMaps = {
      ...files,
      'assets/client.js.map': { type: 'asset', fileName: 'assets/client.js.map', source: map },
      'assets/vitals.js.map': { type: 'asset', fileName: 'assets/vitals.js.map', source: map },
    };
    const out = run(withMaps) as typeof withMaps;
    expect(out['assets/client.js'].code.startsWith(COMPILE_HINT)).toBe(true);
    expect(out['assets/card.js'].code.startsWith(COMPILE_HINT)).toBe(true);
    expect(out['assets/vitals.js'].code).toBe('export const file = "assets/vitals.js";\n');
    expect(out['assets/webVitals.js'].code.startsWith(COMPILE_HINT)).toBe(false);
    expect(JSON.parse(out['assets/client.js.map'].source).mappings).toBe(';AAAA');
    expect(out['assets/vitals.js.map'].source).toBe(map);
    expect(out['assets/index.css'].source).toBe('body{}');
  });

  it('hints a chunk once even when the hook runs again', () => {
    const files = run(run(bundle()));
    expect(files['assets/start.js'].code.split(COMPILE_HINT)).toHaveLength(2);
  });
});
