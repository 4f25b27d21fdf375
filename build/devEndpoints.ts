import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Plugin } from 'vite';
import { createApiApp } from '../api/app.ts';
import { FORM_PATHS } from '../api/forms.ts';
import { FORM_TEMPLATE_DIR } from '../core/formState.ts';
import type { Middleware } from '../server/http.ts';
import { createIconMiddleware } from '../server/routes/icons.ts';
import { createImageMiddleware } from '../server/routes/images.ts';

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

/** The HTML form posts (api/forms.ts), which the API's instance answers too. */
function isFormPost(method: string | undefined, url: string | undefined): boolean {
  if (method !== 'POST') return false;
  const pathname = (url ?? '').split('?')[0];
  return Object.values(FORM_PATHS).some((path) => path === pathname);
}

/** Hands `/api/*` (but the icon endpoint) and the form posts to the API's Fastify instance; everything else goes on. */
export function apiMiddleware(app: FastifyInstance): Middleware {
  return (req, res, next) => {
    if (isFormPost(req.method, req.url)) {
      app.routing(req, res);
      return;
    }
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

/**
 * Where `vite preview` finds the failure template of `/login` (the build's, FORM_TEMPLATE_DIR); `vite dev`
 * has no build, and its form routes answer a failed sign-in with a plain page.
 */
let loginTemplateFile: string | undefined;
const loginTemplate = async () =>
  loginTemplateFile ? readFile(loginTemplateFile, 'utf8').catch(() => undefined) : undefined;

function sharedApiApp(): Promise<FastifyInstance> {
  const holder = globalThis as WithApi;
  holder[RUNNING] ??= createApiApp({ loginTemplate }).then(({ app, database }) => {
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
 * Serves the demo API under `/api/` and its form posts (`POST /login`, `/logout`, `/profile`) from both
 * `vite` (dev) and `vite preview`. The database is
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
    configurePreviewServer(server) {
      loginTemplateFile = join(
        server.config.root,
        server.config.build.outDir,
        FORM_TEMPLATE_DIR,
        'login.html',
      );
      return install(server);
    },
  };
}

/**
 * Serves the icon endpoint (`/api/_nuxt_icon/*`, server/routes/icons.ts) and the image optimiser (`/_ipx/*`,
 * server/routes/images.ts) from both `vite` (dev) and `vite preview`.
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
