// @vitest-environment node
// The app's own icons inlined at build (build/iconBundle.ts): which names are found in the source, which are
// bundled, and the SVG trees rendered from them.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ResolvedConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledIcons, collectBundledIcons, renderBundledIcons, scanIconNames } from '../../build/iconBundle';
import { parseIconBody } from '../../src/platform/iconSvg';

const tempDirs: string[] = [];
afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function sourceTree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'campaign-web-icons-'));
  tempDirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

describe('bundled icons (build-time inlining)', () => {
  it('finds whole `prefix:name` literals, and not names put together at run time', async () => {
    const dir = await sourceTree({
      'a.tsx': `<Icon name="lucide:house" /> <Icon name={'lucide:log-in'} />`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text with a template literal in it, on purpose.
      'nested/b.ts': "const x = 'lucide:user'; const y = `lucide:${name}`; const z = 'mdi:home';",
      'c.css': '.x { content: "lucide:sun" }',
    });
    const found = await scanIconNames(dir);
    expect([...(found.get('lucide') ?? [])].sort()).toEqual(['house', 'log-in', 'user']);
    expect([...(found.get('mdi') ?? [])]).toEqual(['home']);
  });

  it('inlines exactly the named icons of installed collections and reports unknown names', async () => {
    const dir = await sourceTree({
      'a.tsx': "'lucide:house' 'lucide:no-such-icon' 'mdi:home' 'sm:50vw' 'lucide:home'",
    });
    const warnings: string[] = [];
    const sets = await collectBundledIcons(dir, (message) => warnings.push(message));
    expect(sets).toHaveLength(1);
    const [lucide] = sets;
    expect(lucide?.prefix).toBe('lucide');
    expect(Object.keys(lucide?.icons ?? {})).toEqual(['house']);
    // `home` is an alias of `house` in lucide: the alias comes along, the parent is not duplicated.
    expect(Object.keys(lucide?.aliases ?? {})).toEqual(['home']);
    expect(lucide).not.toHaveProperty('not_found');
    expect(warnings).toEqual(['[icons] Not in @iconify-json/lucide: no-such-icon']);
  });

  it('inlines the app’s own icons and leaves out the gallery’s on-demand ones', async () => {
    const [lucide] = await collectBundledIcons(path.resolve('src'), () => {});
    const names = Object.keys(lucide?.icons ?? {});
    for (const name of ['house', 'user-round', 'log-in', 'log-out', 'image-off'])
      expect(names).toContain(name);
    for (const name of ['telescope', 'sailboat', 'tent']) expect(names).not.toContain(name);
    expect(JSON.stringify(lucide).length).toBeLessThan(20_000);
  });

  it('renders the named icons into SVG trees at build, aliases included, bodies with ids left to run time', () => {
    const set = {
      prefix: 'test',
      width: 24,
      height: 24,
      icons: {
        plain: { body: '<path d="M0 0h24v24H0z"/>' },
        withId: { body: '<defs><linearGradient id="a"/></defs><path fill="url(#a)" d="M0 0"/>' },
      },
      aliases: { alias: { parent: 'plain' } },
    };
    const rendered = renderBundledIcons(
      [set],
      new Map([['test', new Set(['plain', 'alias', 'withId', 'gone'])]]),
      parseIconBody,
    );
    expect(Object.keys(rendered).sort()).toEqual(['test:alias', 'test:plain']);
    expect(rendered['test:plain']).toEqual({
      viewBox: '0 0 24 24',
      nodes: [{ tag: 'path', props: { d: 'M0 0h24v24H0z' }, children: [] }],
    });
  });

  it('replaces only the stand-in module', async () => {
    const dir = await sourceTree({ 'src/a.tsx': "'lucide:house'", 'src/platform/icons.bundle.ts': '' });
    const plugin = bundledIcons({ parseIconBody });
    (plugin.configResolved as (config: ResolvedConfig) => void)({ root: dir } as ResolvedConfig);
    const load = plugin.load as (this: { warn(m: string): void }, id: string) => Promise<string | null>;
    const context = { warn: () => {} };
    expect(await load.call(context, path.join(dir, 'src/a.tsx'))).toBeNull();
    const code = await load.call(context, `${path.join(dir, 'src/platform/icons.bundle.ts')}?v=1`);
    expect(code).toMatch(/^export const bundledIcons = \[\{"prefix":"lucide","icons":\{"house":/);
    const rendered = await load.call(context, path.join(dir, 'src/platform/icons.rendered.ts'));
    expect(rendered).toMatch(
      /^export const renderedIcons = \{"lucide:house":\{"viewBox":"0 0 24 24","nodes":\[/,
    );
  });
});
