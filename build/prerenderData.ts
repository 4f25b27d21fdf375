/**
 * Where the prerender reads the data of the pages it renders (build/prerenderPages.ts). The page loaders call
 * `/api/…` as in the browser; at build those requests go to, in this order:
 *  1. `PRERENDER_API_URL`: a running deployment's API (`https://campaigns.example/api`), as its visitors see it;
 *  2. `DATABASE_URL`: the deployment's PostgreSQL, through the demo API started on a loopback port (opened as
 *     the server opens it, with the same settings);
 *  3. otherwise an embedded database in a throw-away folder: a copy of `PRERENDER_DATA_DIR`, or a new one with
 *     what the API writes into a new embedded database (the demo data, unless `DEMO_DATA=0`), never the
 *     developer's `.data`, so a build from a checkout is the same on every machine.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiApp } from '../api/app.ts';
import { readApiConfig } from '../api/config.ts';

type Env = Record<string, string | undefined>;

export type PrerenderSource =
  | { readonly kind: 'api'; readonly apiBaseUrl: string }
  | { readonly kind: 'database' }
  | { readonly kind: 'embedded'; readonly copyOf?: string };

/** The API base URL without a trailing slash, checked: a typo must stop the build, not prerender the seed. */
function apiBaseUrlFrom(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `PRERENDER_API_URL=${JSON.stringify(value)} is not a URL: expected a running site's API, such as https://campaigns.example/api.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`PRERENDER_API_URL must start with https:// or http://, not ${url.protocol}//.`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** What the environment at build time says the prerender reads. */
export function prerenderSource(env: Env = process.env): PrerenderSource {
  if (env.PRERENDER_API_URL) return { kind: 'api', apiBaseUrl: apiBaseUrlFrom(env.PRERENDER_API_URL) };
  if (env.DATABASE_URL) return { kind: 'database' };
  return env.PRERENDER_DATA_DIR ? { kind: 'embedded', copyOf: env.PRERENDER_DATA_DIR } : { kind: 'embedded' };
}

export interface BuildApi {
  /** Where `/api` is: `${apiBaseUrl}/campaigns` lists the campaigns. */
  readonly apiBaseUrl: string;
  /** Where the data came from, safe to print (no password). */
  readonly where: string;
  close(): Promise<void>;
}

/** The API the prerender reads, started if it must be; `close` stops it and removes any throw-away folder. */
export async function startBuildApi(env: Env = process.env): Promise<BuildApi> {
  const source = prerenderSource(env);
  if (source.kind === 'api') {
    return { apiBaseUrl: source.apiBaseUrl, where: source.apiBaseUrl, close: async () => {} };
  }
  // A folder of its own even for PostgreSQL: nothing of the API may land in the developer's DATA_DIR.
  const dataDir = await mkdtemp(join(tmpdir(), 'campaign-web-prerender-'));
  const removeFolder = () => rm(dataDir, { recursive: true, force: true });
  try {
    if (source.kind === 'embedded' && source.copyOf) await cp(source.copyOf, dataDir, { recursive: true });
    const config = readApiConfig({
      ...env,
      DATABASE_URL: source.kind === 'database' ? env.DATABASE_URL : '',
      DATA_DIR: dataDir,
    });
    const { app, database } = await createApiApp({ config });
    try {
      const origin = await app.listen({ port: 0, host: '127.0.0.1' });
      return {
        apiBaseUrl: `${origin}/api`,
        where: source.kind === 'database' ? database.where : `a new embedded database`,
        close: async () => {
          await app.close();
          await removeFolder();
        },
      };
    } catch (error) {
      await app.close().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    await removeFolder();
    throw error;
  }
}

/**
 * Runs `run` with `fetch` sending relative URLs to the build's API: `/api/…` to its base URL, any other path to
 * its origin. Only for the duration of the render.
 */
export async function withBuildApi<T>(apiBaseUrl: string, run: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  const origin = new URL(apiBaseUrl).origin;
  const rewrite = (path: string) =>
    /^\/api(?=[/?#]|$)/.test(path) ? `${apiBaseUrl}${path.slice(4)}` : `${origin}${path}`;
  globalThis.fetch = (input, init) =>
    original(typeof input === 'string' && input.startsWith('/') ? rewrite(input) : input, init);
  try {
    return await run();
  } finally {
    globalThis.fetch = original;
  }
}
