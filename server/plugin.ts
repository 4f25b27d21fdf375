import type { Plugin } from 'vite';
import { createApi } from './api.ts';
import { createMiddleware, type Middleware } from './http.ts';
import { createIconMiddleware } from './icons.ts';
import { createImageMiddleware } from './images.ts';

export interface DemoApiOptions {
  /** Where db.json lives, relative to process.cwd(). Defaults to $DATA_DIR, then `.data`. */
  dataDir?: string;
}

/** The `/api/*` middleware on its own, for servers that are not Vite. */
export function createDemoApiMiddleware(options: DemoApiOptions = {}): Middleware {
  const dataDir = options.dataDir ?? process.env.DATA_DIR ?? '.data';
  return createMiddleware(createApi({ dataDir }), { delayMs: readDelay(process.env.DEMO_API_DELAY_MS) });
}

/** Serves the demo API under `/api/` from both `vite` (dev) and `vite preview`. */
export function demoApi(options: DemoApiOptions = {}): Plugin {
  let middleware: Middleware | undefined;
  // Created on first use so that `vite build`, which never serves, never touches the data dir.
  const install = (server: { middlewares: { use(fn: Middleware): unknown } }) => {
    middleware ??= createDemoApiMiddleware(options);
    server.middlewares.use(middleware);
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

function readDelay(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  if (/^\d+$/.test(raw)) return Number(raw);
  console.warn(
    `[demo-api] Ignoring DEMO_API_DELAY_MS=${JSON.stringify(raw)}: expected a whole number of milliseconds.`,
  );
  return 0;
}
