// @vitest-environment node
// build/startChunks.ts: the app's start parts (src/main.tsx's dynamic imports) are preloaded from the HTML and
// counted in every first load.
import { describe, expect, it } from 'vitest';
import { START_MODULES, startChunks, startKeys, startPreloads, staticImports } from '../../build/startChunks';

const [react = '', machines = '', views = ''] = START_MODULES;

/** A build manifest: the entry, the three start parts, a shared chunk, a page and a lazy chunk. */
const manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_shared.js'] },
  '_shared.js': { file: 'assets/shared.js' },
  [react]: { file: 'assets/client.js', imports: ['index.html'] },
  [machines]: { file: 'assets/app.js', imports: ['index.html', '_xstate.js'] },
  '_xstate.js': { file: 'assets/xstate.js' },
  [views]: { file: 'assets/start.js', imports: [machines, react, '_ui.js'] },
  '_ui.js': { file: 'assets/ui.js' },
  'src/pages/campaign.tsx': { file: 'assets/campaign.js', imports: ['_ui.js', '_card.js'] },
  '_card.js': { file: 'assets/card.js' },
  'src/platform/vitals.ts': { file: 'assets/vitals.js' },
};

describe('START_MODULES', () => {
  it('names what src/main.tsx imports, in its order: React, the machines with the browser side, the views', () => {
    expect(START_MODULES).toEqual([
      'node_modules/react-dom/client.js',
      'src/platform/app.ts',
      'src/start.tsx',
    ]);
  });
});

describe('staticImports', () => {
  it('is a chunk and what it imports statically, directly or not, each once, and nothing lazy', () => {
    expect([...staticImports(manifest, views)].sort()).toEqual(
      ['_shared.js', '_ui.js', '_xstate.js', 'index.html', machines, react, views].sort(),
    );
    expect([...staticImports(manifest, 'src/pages/campaign.tsx')]).toEqual([
      'src/pages/campaign.tsx',
      '_ui.js',
      '_card.js',
    ]);
  });

  it('adds to the set it is given, stops at what it holds already, and survives an import cycle', () => {
    const seen = new Set(['_ui.js']);
    expect(staticImports(manifest, 'src/pages/campaign.tsx', seen)).toBe(seen);
    expect([...seen]).toEqual(['_ui.js', 'src/pages/campaign.tsx', '_card.js']);
    const cycle = { 'a.js': { imports: ['b.js'] }, 'b.js': { imports: ['a.js'] } };
    expect([...staticImports(cycle, 'a.js')]).toEqual(['a.js', 'b.js']);
  });
});

describe('startKeys', () => {
  it('is the entry and each start part with everything they import statically, and nothing lazy', () => {
    expect([...startKeys(manifest)].sort()).toEqual(
      ['_shared.js', '_ui.js', '_xstate.js', 'index.html', machines, react, views].sort(),
    );
  });

  it('fails when a start part has no chunk, or there is no entry', () => {
    const { [machines]: _gone, ...without } = manifest;
    expect(() => startKeys(without)).toThrow(`The build has no chunk for ${machines}`);
    expect(() => startKeys({ [react]: { file: 'a.js' } })).toThrow('no entry chunk');
  });
});

describe('startPreloads', () => {
  const root = '/repo';
  /** The same build as Rollup's bundle: chunks by file name, the start parts with their facade modules. */
  const bundle = {
    'assets/index.js': { type: 'chunk' as const, fileName: 'assets/index.js', imports: ['assets/shared.js'] },
    'assets/shared.js': { type: 'chunk' as const, fileName: 'assets/shared.js', imports: [] },
    'assets/client.js': {
      type: 'chunk' as const,
      fileName: 'assets/client.js',
      facadeModuleId: `${root}/${react}`,
      imports: ['assets/index.js'],
    },
    'assets/app.js': {
      type: 'chunk' as const,
      fileName: 'assets/app.js',
      facadeModuleId: `${root}/${machines}`,
      imports: ['assets/index.js', 'assets/xstate.js'],
    },
    'assets/xstate.js': { type: 'chunk' as const, fileName: 'assets/xstate.js', imports: [] },
    'assets/start.js': {
      type: 'chunk' as const,
      fileName: 'assets/start.js',
      facadeModuleId: `${root}/${views}`,
      imports: ['assets/app.js', 'assets/client.js', 'assets/ui.js'],
    },
    'assets/ui.js': { type: 'chunk' as const, fileName: 'assets/ui.js', imports: [] },
    'assets/campaign.js': {
      type: 'chunk' as const,
      fileName: 'assets/campaign.js',
      facadeModuleId: `${root}/src/pages/campaign.tsx`,
      imports: ['assets/ui.js'],
    },
    'assets/index.css': { type: 'asset' as const, fileName: 'assets/index.css' },
  };

  it("lists every chunk of the start parts once, less the entry's own, and no page's", () => {
    expect(startPreloads(bundle, root, 'assets/index.js').sort()).toEqual(
      ['assets/app.js', 'assets/client.js', 'assets/start.js', 'assets/ui.js', 'assets/xstate.js'].sort(),
    );
  });

  it('fails when a start part has no chunk', () => {
    const { 'assets/start.js': _gone, ...without } = bundle;
    expect(() => startPreloads(without, root, 'assets/index.js')).toThrow(
      `The build has no chunk for ${views}`,
    );
  });

  it('the plugin adds them to the HTML as modulepreloads under the base, for the build only', () => {
    const plugin = startChunks();
    expect(plugin.apply).toBe('build');
    (plugin.configResolved as (config: { root: string; base: string }) => void)({ root, base: '/app/' });
    const { handler } = plugin.transformIndexHtml as {
      handler: (html: string, context: { bundle?: typeof bundle; chunk?: { fileName: string } }) => unknown;
    };
    const tags = handler('', { bundle, chunk: { fileName: 'assets/index.js' } }) as {
      attrs: Record<string, unknown>;
    }[];
    expect(tags.map(({ attrs }) => attrs.href).sort()).toEqual(
      [
        '/app/assets/app.js',
        '/app/assets/client.js',
        '/app/assets/start.js',
        '/app/assets/ui.js',
        '/app/assets/xstate.js',
      ].sort(),
    );
    expect(tags[0]).toEqual({
      tag: 'link',
      attrs: { rel: 'modulepreload', crossorigin: true, href: expect.any(String) },
      injectTo: 'head',
    });
    // In development (no bundle) there is nothing to preload.
    expect(handler('', {})).toEqual([]);
  });
});
