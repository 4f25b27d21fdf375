import type { FastifyInstance } from 'fastify';
import type { Plugin } from 'vite';
import { createApiApp } from '../api/app.ts';
import type { Middleware } from '../server/http.ts';
import { createIconMiddleware } from '../server/icons.ts';
import { createImageMiddleware } from '../server/images.ts';

function apiPathname(url: string | undefined): string | undefined {
  try {
    const { pathname } = new URL(url ?? '/', 'http://localhost');
    return pathname.startsWith('/api/') ? pathname : undefined;
  } catch {
    return undefined;
  }
}

function isForeignRoute(pathname: string): boolean {
  // Served by another middleware (icon endpoint), not by the demo API.
  return pathname === '/api/_nuxt_icon' || pathname.startsWith('/api/_nuxt_icon/');
}

/** Hands `/api/*` (but the icon endpoint) to the API's Fastify instance; everything else goes on. */
export function apiMiddleware(app: FastifyInstance): Middleware {
  return (req, res, next) => {
    const pathname = apiPathname(req.url);
    if (pathname === undefined || isForeignRoute(pathname)) {
      next();
      return;
    }
    app.routing(req, res);
  };
}

// Vite re-evaluates this file when it restarts the dev server: the API (and the embedded database's
// lock) must outlive that, so the running instance is kept on the process.
const RUNNING = Symbol.for('campaign-web.demoApi');
type WithApi = typeof globalThis & { [RUNNING]?: Promise<FastifyInstance> };

function sharedApiApp(): Promise<FastifyInstance> {
  const holder = globalThis as WithApi;
  holder[RUNNING] ??= createApiApp().then(({ app, database }) => {
    console.log(`[demo-api] serving /api/* from ${database.where}`);
    return app;
  });
  holder[RUNNING].catch(() => {
    holder[RUNNING] = undefined;
  });
  return holder[RUNNING];
}

/** Closes the shared API (and its database); for tests. */
export async function stopDemoApi(): Promise<void> {
  const holder = globalThis as WithApi;
  const running = holder[RUNNING];
  holder[RUNNING] = undefined;
  await (await running?.catch(() => undefined))?.close();
}

/**
 * Serves the demo API under `/api/` from both `vite` (dev) and `vite preview`. The database is
 * opened (and migrated) while the server starts, so one that cannot be opened stops the start with
 * its reason instead of failing the first request.
 */
export function demoApi(): Plugin {
  // Only when serving: `vite build` never touches the data dir.
  const install = async (server: { middlewares: { use(fn: Middleware): unknown } }) => {
    server.middlewares.use(apiMiddleware(await sharedApiApp()));
  };
  return {
    name: 'campaign-web:demo-api',
    configureServer: install,
    configurePreviewServer: install,
  };
}

/**
 * Serves the icon endpoint (`/api/_nuxt_icon/*`, server/icons.ts) and the image optimiser (`/_ipx/*`,
 * server/images.ts) from both `vite` (dev) and `vite preview`.
 */
export function assetEndpoints(): Plugin {
  let middlewares: Middleware[] | undefined;
  const install = (server: { middlewares: { use(fn: Middleware): unknown } }) => {
    middlewares ??= [createIconMiddleware(), createImageMiddleware()];
    for (const middleware of middlewares) server.middlewares.use(middleware);
  };
  return {
    name: 'campaign-web:asset-endpoints',
    configureServer: install,
    configurePreviewServer: install,
  };
}
