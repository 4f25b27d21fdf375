// @vitest-environment node
// The demo API inside `vite` and `vite preview`: one Fastify instance behind a connect middleware that
// takes /api/* (but the icon endpoint) and passes everything else on.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PreviewServer, ViteDevServer } from 'vite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { demoApi, stopDemoApi } from '../../build/devEndpoints';
import type { Middleware } from '../../server/http';

describe('demoApi() Vite plugin', { timeout: 120_000 }, () => {
  let dataDir = '';
  afterAll(async () => {
    await stopDemoApi();
    vi.unstubAllEnvs();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves real HTTP through the same API instance in dev and preview', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'campaign-web-plugin-'));
    vi.stubEnv('DATA_DIR', dataDir);
    vi.stubEnv('DATABASE_URL', '');
    const plugin = demoApi();
    const dev: Middleware[] = [];
    const preview: Middleware[] = [];
    const devHook = plugin.configureServer as (server: ViteDevServer) => Promise<void>;
    const previewHook = plugin.configurePreviewServer as (server: PreviewServer) => Promise<void>;
    await devHook({ middlewares: { use: (m: Middleware) => dev.push(m) } } as unknown as ViteDevServer);
    await previewHook({
      middlewares: { use: (m: Middleware) => preview.push(m) },
      // Where the preview finds the build's sign-in template for failed no-JavaScript sign-ins.
      config: { root: dataDir, build: { outDir: 'dist' } },
    } as unknown as PreviewServer);
    expect(dev).toHaveLength(1);
    expect(preview).toHaveLength(1);

    const [middleware] = dev;
    if (!middleware) throw new Error('not installed');
    // A minimal connect: the middleware first, then a stand-in for the rest of Vite.
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      middleware(req, res, () => {
        res.statusCode = 418;
        res.end(`next:${req.url}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    try {
      const signIn = await fetch(`${base}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ email: 'sam@example.com', password: 'sam-password' }),
      });
      expect(signIn.status).toBe(200);
      expect(signIn.headers.get('cache-control')).toBe('no-store');
      const cookie = signIn.headers.getSetCookie()[0]?.split(';')[0] ?? '';
      expect(cookie).toMatch(/^sid=/);
      const session = await fetch(`${base}/api/session`, { headers: { cookie } });
      expect(await session.json()).toEqual({
        user: { id: 'u2', email: 'sam@example.com', displayName: 'Sam Rivera' },
      });

      for (const passedOn of ['/', '/api', '/campaigns/1', '/api/_nuxt_icon', '/api/_nuxt_icon/mdi:home']) {
        const res = await fetch(`${base}${passedOn}`);
        expect(res.status, passedOn).toBe(418);
        expect(await res.text()).toBe(`next:${passedOn}`);
      }
      expect((await fetch(`${base}/api/nothing-here`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
