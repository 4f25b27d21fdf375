// @vitest-environment node
// The icon endpoint (server/routes/icons.ts): GET /api/_nuxt_icon/{prefix}.json?icons=, and the middlewares that
// mount it and the image optimiser in Vite's dev and preview servers.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IconifyJSON } from '@iconify/types';
import type { PreviewServer, ViteDevServer } from 'vite';
import { describe, expect, it } from 'vitest';
import { assetEndpoints } from '../../build/devEndpoints';
import type { Middleware } from '../../server/http';
import { createIconMiddleware, handleIconRequest, MAX_ICONS_PER_REQUEST } from '../../server/routes/icons';

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
