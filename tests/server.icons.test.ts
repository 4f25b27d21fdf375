// @vitest-environment node
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IconifyJSON } from '@iconify/types';
import type { PreviewServer, ResolvedConfig, ViteDevServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { assetEndpoints } from '../build/devEndpoints';
import { bundledIcons, collectBundledIcons, renderBundledIcons, scanIconNames } from '../build/iconBundle';
import type { Middleware } from '../server/http';
import { createIconMiddleware, handleIconRequest, MAX_ICONS_PER_REQUEST } from '../server/icons';
import { parseIconBody } from '../src/platform/iconSvg';

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

describe('GET /api/_nuxt_icon/{prefix}.json?icons=', () => {
  it('answers the named icons of an installed collection as one IconifyJSON, cached for a week', async () => {
    const res = await handleIconRequest('GET', '/api/_nuxt_icon/lucide.json?icons=house,log-in');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=604800');
    const body = res.body as IconifyJSON;
    expect(body.prefix).toBe('lucide');
    expect(Object.keys(body.icons).sort()).toEqual(['house', 'log-in']);
    expect(body.icons.house?.body).toContain('<path');
    expect(body.width).toBe(24);
    expect(body.not_found).toBeUndefined();
  });

  it('lists names the collection lacks under not_found, as the Iconify API does', async () => {
    const res = await handleIconRequest('GET', '/api/_nuxt_icon/lucide.json?icons=house,no-such-icon');
    expect(res.status).toBe(200);
    expect((res.body as IconifyJSON).not_found).toEqual(['no-such-icon']);
  });

  it('accepts the comma encoded, as URLSearchParams writes it', async () => {
    const res = await handleIconRequest('GET', '/api/_nuxt_icon/lucide.json?icons=house%2Cuser');
    expect(Object.keys((res.body as IconifyJSON).icons).sort()).toEqual(['house', 'user']);
  });

  it('answers 404 for a collection that is not installed, so the client asks the public API', async () => {
    const res = await handleIconRequest('GET', '/api/_nuxt_icon/mdi.json?icons=home');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: 'Icon collection "mdi" is not installed on this server (npm i -D @iconify-json/mdi).',
    });
  });

  it.each([
    ['/api/_nuxt_icon/lucide.json', 400, 'Name the icons to load: ?icons=name1,name2.'],
    ['/api/_nuxt_icon/lucide.json?icons=', 400, 'Name the icons to load: ?icons=name1,name2.'],
    ['/api/_nuxt_icon/lucide.json?icons=House', 400, '"House" is not a valid icon name.'],
    ['/api/_nuxt_icon/lucide.json?icons=../../x', 400, '"../../x" is not a valid icon name.'],
    [
      '/api/_nuxt_icon/..%2F..%2Fpackage.json?icons=x',
      400,
      '"..%2F..%2Fpackage" is not an icon collection name.',
    ],
    [
      '/api/_nuxt_icon/lucide?icons=x',
      404,
      'Icon requests look like /api/_nuxt_icon/{prefix}.json?icons=name1,name2.',
    ],
    [
      '/api/_nuxt_icon/a/b.json?icons=x',
      404,
      'Icon requests look like /api/_nuxt_icon/{prefix}.json?icons=name1,name2.',
    ],
  ])('answers %s with %i', async (url, status, message) => {
    const res = await handleIconRequest('GET', url);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('limits the number of icons per request', async () => {
    const names = Array.from({ length: MAX_ICONS_PER_REQUEST + 1 }, (_, i) => `i${i}`).join(',');
    const res = await handleIconRequest('GET', `/api/_nuxt_icon/lucide.json?icons=${names}`);
    expect(res.status).toBe(400);
  });

  it('allows only GET and HEAD', async () => {
    const res = await handleIconRequest('POST', '/api/_nuxt_icon/lucide.json?icons=house');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('icon and image middlewares', () => {
  it('are installed for dev and preview and serve real HTTP, passing everything else on', async () => {
    const plugin = assetEndpoints();
    const dev: Middleware[] = [];
    const preview: Middleware[] = [];
    (plugin.configureServer as (server: ViteDevServer) => void)({
      middlewares: { use: (m: Middleware) => dev.push(m) },
    } as unknown as ViteDevServer);
    (plugin.configurePreviewServer as (server: PreviewServer) => void)({
      middlewares: { use: (m: Middleware) => preview.push(m) },
    } as unknown as PreviewServer);
    expect(dev).toHaveLength(2);
    expect(preview).toEqual(dev);

    const icons = createIconMiddleware();
    const server = createServer((req, res) =>
      icons(req, res, () => {
        res.statusCode = 418;
        res.end(`next:${req.url}`);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const res = await fetch(`${base}/api/_nuxt_icon/lucide.json?icons=house`);
      expect(res.status).toBe(200);
      expect(Object.keys(((await res.json()) as IconifyJSON).icons)).toEqual(['house']);
      const head = await fetch(`${base}/api/_nuxt_icon/lucide.json?icons=house`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      for (const passedOn of ['/', '/api/session', '/api/_nuxt_iconx', '/_ipx/_/a.jpg']) {
        const other = await fetch(`${base}${passedOn}`);
        expect(other.status, passedOn).toBe(418);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

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
