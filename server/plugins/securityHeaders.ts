/**
 * The one source of the production response headers: the Content-Security-Policy, the other security headers,
 * and the caching rule for each kind of file. The Fastify server sends them on every response (the plugin at
 * the end; the HTTP parser's refusals in server/plugins/errors.ts), and the build writes the same values as
 * `dist/_headers` for static hosts and CDNs (build/finalizeBuild.ts), so a deployment without our server cannot
 * drift from one with it.
 */
import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/** The icon loader's fallback (src/config.ts `config.icons.fallbackEndpoint`; a unit test keeps them equal). */
export const ICON_FALLBACK_URL = 'https://api.iconify.design';

/** Written by the build's last step beside the build: `{ apiBaseUrl }` as the client build saw it. */
export const BUILD_ENV_FILE = '.build-env.json';

/** What the CSP must allow besides our own origin; computed from the build (server/plugins/inlineHashes.ts). */
export interface PolicyInputs {
  /** `'sha256-…'` sources of every inline executable script in the built HTML. */
  scriptHashes: readonly string[];
  /** `'sha256-…'` sources of every inline `<style>` element in the built HTML. */
  styleHashes: readonly string[];
  /** `'sha256-…'` sources of every `style="…"` attribute in the built HTML (prerendered markup). */
  styleAttributeHashes: readonly string[];
}

export interface HeaderOptions {
  /**
   * `VITE_API_BASE_URL` as the build saw it. An absolute URL on another origin joins `connect-src`, so the CSP
   * keeps allowing the API wherever it is deployed.
   */
  apiBaseUrl?: string | undefined;
  /** Origins the icon loader may fall back to (src/config.ts `config.icons.fallbackEndpoint`). */
  iconFallbackUrl: string;
  /** Send `Strict-Transport-Security` (and upgrade-insecure-requests): only when served over TLS. */
  hsts: boolean;
}

/** The origin of an absolute http(s) URL, or undefined for a relative one (same origin) or garbage. */
export function originOf(url: string | undefined): string | undefined {
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/**
 * The policy. `script-src` has no 'unsafe-inline' and no 'unsafe-eval': the app's code comes from our origin
 * and the boot scripts in the HTML are allowed one by one by hash. Style attributes in prerendered markup are
 * allowed by exact hash ('unsafe-hashes' covers attributes only, never `<style>` text); React sets run-time
 * styles through the CSSOM, which CSP does not govern.
 */
export function contentSecurityPolicy(inputs: PolicyInputs, options: HeaderOptions): string {
  const connect = unique(
    [originOf(options.iconFallbackUrl), originOf(options.apiBaseUrl)].filter(
      (origin): origin is string => origin !== undefined,
    ),
  );
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...unique(inputs.scriptHashes)],
    ['style-src', "'self'", ...unique(inputs.styleHashes)],
    ...(inputs.styleAttributeHashes.length > 0
      ? [
          ['style-src-attr', "'unsafe-hashes'", ...unique(inputs.styleAttributeHashes)] as [
            string,
            ...string[],
          ],
        ]
      : []),
    ['img-src', "'self'", 'data:'],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...connect],
    ['manifest-src', "'self'"],
    ['worker-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['frame-ancestors', "'none'"],
    ['form-action', "'self'"],
  ];
  if (options.hsts) directives.push(['upgrade-insecure-requests']);
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/**
 * Features the app never uses are denied to it and to anything it might embed, so a script injected into the
 * page could not ask for them either.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'encrypted-media=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
  'browsing-topics=()',
].join(', ');

/** Two years, with subdomains: what the HSTS preload list asks for. */
const HSTS = 'max-age=63072000; includeSubDomains';

/** The headers every response carries: HTML, assets, API answers and errors alike. */
export function securityHeaders(inputs: PolicyInputs, options: HeaderOptions): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(inputs, options),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin',
    // Our images, icons and API answers are for our pages only: another site cannot embed them (no-cors loads
    // such as <img> or <script>), so a cross-origin page cannot read them through a side channel either.
    'cross-origin-resource-policy': 'same-origin',
    // Asks for a process of its own for the origin, out of reach of same-site pages' synchronous scripting.
    'origin-agent-cluster': '?1',
    // No DNS look-ups ahead for links the page shows (campaign text may name any host).
    'x-dns-prefetch-control': 'off',
    // No Flash or Acrobat cross-domain policy file grants anything here.
    'x-permitted-cross-domain-policies': 'none',
    // Old browsers without frame-ancestors still honour this.
    'x-frame-options': 'DENY',
    'permissions-policy': PERMISSIONS_POLICY,
    ...(options.hsts ? { 'strict-transport-security': HSTS } : {}),
  };
}

export const CACHE = {
  /** Content-hashed: a new build writes new names, so the old bytes may be kept for ever. */
  immutable: 'public, max-age=31536000, immutable',
  /** May be stored, but must be revalidated (ETag → 304) on every use. */
  revalidate: 'no-cache',
  /** Must reach the server every time: the update check reads it. */
  never: 'no-store',
} as const;

/**
 * The caching rule for a file of the build, by its path relative to `dist/` (`/`-separated, no leading slash).
 * Unknown kinds revalidate: a stale file is worse than a 304.
 */
export function cacheControlFor(relativePath: string): string {
  if (relativePath.startsWith('assets/')) return CACHE.immutable;
  if (relativePath === '_app/builds/latest.json') return CACHE.never;
  if (relativePath.startsWith('_app/builds/meta/')) return CACHE.immutable;
  return CACHE.revalidate;
}

/**
 * `dist/_headers` in the format Netlify and Cloudflare Pages read: a path pattern, then indented
 * `Name: value` lines. `/*` carries the security headers; the more specific rules add caching. Both hosts
 * apply every matching rule and join a header set by two rules with a comma, so no header appears in two
 * rules: HTML gets the hosts' own default, which revalidates (Netlify: `max-age=0, must-revalidate`).
 */
export function headersFile(security: Record<string, string>): string {
  const block = (pattern: string, headers: Record<string, string>) =>
    [pattern, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  return `${[
    block('/*', security),
    block('/assets/*', { 'cache-control': CACHE.immutable }),
    block('/_app/builds/meta/*', { 'cache-control': CACHE.immutable }),
    block('/_app/builds/latest.json', { 'cache-control': CACHE.never }),
  ].join('\n\n')}\n`;
}

/**
 * The security headers on every reply of every route, 404, 413 and 503 included: an `onSend` hook of the root
 * (hence fastify-plugin), registered before any route.
 */
const sendSecurityHeaders: FastifyPluginAsync<{ headers: Record<string, string> }> = async (
  app,
  { headers },
) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    // A page rendered on request sets a CSP of its own (its inline hashes: server/render/pages.ts).
    const own = reply.getHeader('content-security-policy');
    reply.headers(headers);
    if (own !== undefined) reply.header('content-security-policy', own);
    return payload;
  });
};
export const securityHeadersPlugin = fastifyPlugin(sendSecurityHeaders, { name: 'security-headers' });
