// @vitest-environment node
/**
 * The production server (server/app.ts) on a small build made here: compression, caching per kind of file,
 * 404s, the SPA shell and prerendered pages, security headers on every kind of response, traversal, /healthz.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenDatabase, openDatabase } from '../../api/database/open';
import { precompress } from '../../build/precompress';
import { TRANSITION_FREEZE_CSS } from '../../core/colorModeFreeze';
import { buildServer } from '../../server/app';
import { hashesOfHtml } from '../../server/plugins/inlineHashes';
import {
  contentSecurityPolicy,
  headersFile,
  ICON_FALLBACK_URL,
  securityHeaders,
} from '../../server/plugins/securityHeaders';
import { pathSegments } from '../../server/routes/site';
import { config } from '../../src/config';

const BOOT = "document.documentElement.classList.add('light')";
const INDEX = `<!doctype html><html><head><script>${BOOT}</script><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>`;
const SHELL = `<!doctype html><html><head><script>${BOOT}</script></head><body>shell</body></html>`;
const PRERENDERED = `<!doctype html><html><head><script>${BOOT}</script><script>window.__hydrate = 1</script><script type="application/json" id="payload">{"a":1}</script></head><body><div style="width: 42%">campaign one</div></body></html>`;
/**
 * A render bundle as the build writes it (dist/.render/render.mjs, build/renderEntry.ts), small enough to read:
 * it renders a campaign page from what the server's API answers it, and every other page as PRERENDERED.
 */
const RENDER_BUNDLE = `
const page = (text) => ${JSON.stringify(PRERENDERED)}.replace('campaign one', text);
export async function createDocumentRenderer({ fetch }) {
  return {
    buildId: ${JSON.stringify('test-build-1')},
    async render(path, formState) {
      const id = /^\\/campaign\\/(\\d+)$/.exec(path)?.[1];
      if (!id) return { html: page(formState ? 'failed ' + path : 'page ' + path), payload: { buildId: 'test-build-1', path }, route: 'index' };
      const answer = await fetch('/api/campaigns/' + id);
      if (!answer.ok) throw Object.assign(new Error('no campaign'), { statusCode: answer.status });
      const { campaign } = await answer.json();
      return { html: page(campaign.title), payload: { buildId: 'test-build-1', path, data: campaign }, route: 'campaign' };
    },
  };
}
`;
const BIG_JS = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
const BUILD_ID = 'test-build-1';

const HEADER_OPTIONS = { iconFallbackUrl: 'https://api.iconify.design', hsts: false };

let root: string;
let dist: string;
let app: FastifyInstance;
let database: OpenDatabase;

async function put(relative: string, content: string) {
  const file = path.join(dist, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'campaign-web-server-'));
  dist = path.join(root, 'dist');
  await put('index.html', INDEX);
  await put('200.html', SHELL);
  await put('.render/render.mjs', RENDER_BUNDLE);
  await put('assets/index-abc.js', BIG_JS);
  await put('assets/index-abc.js.map', '{"version":3}');
  await put('assets/tiny-abc.css', 'a{}');
  await put('_app/builds/latest.json', JSON.stringify({ id: BUILD_ID, timestamp: 1 }));
  await put(`_app/builds/meta/${BUILD_ID}.json`, JSON.stringify({ id: BUILD_ID }));
  await put('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await put('.vite/manifest.json', '{}');
  await put('_headers', '/*\n');
  await put('_redirects', '/home /200.html 200\n');
  await put('404.html', SHELL);
  await writeFile(path.join(root, 'secret.txt'), 'outside the build');
  await precompress(dist);
  database = await openDatabase(
    { kind: 'pglite', dir: path.join(root, 'data', 'db') },
    { migrate: true, demoData: true },
  );
  // More live campaigns than the demo's three, so the list's JSON is past the compression threshold.
  await database.db
    .insertInto('campaigns')
    .values(
      Array.from({ length: 6 }, (_, index) => ({
        id: 100 + index,
        title: `Live campaign ${index}`,
        summary: 'A campaign added for the list to be long enough to compress on the fly.',
        description: 'd',
        status: 'active' as const,
        goal: 100,
        raised: 10,
        ownerId: 'u1',
        featured: false,
        image: null,
        startsOn: '2025-01-01',
        endsOn: '2025-12-31',
      })),
    )
    .execute();
  app = await buildServer({
    database,
    distDir: dist,
    dataDir: path.join(root, 'data'),
    imagesDir: path.join(root, 'images'),
    imageCacheDir: path.join(root, 'image-cache'),
    headers: HEADER_OPTIONS,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  // Opening and migrating the embedded database takes seconds on a busy machine.
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  await rm(root, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });
const html = { accept: 'text/html,application/xhtml+xml' };

describe('compression', () => {
  it('sends the brotli copy to a client that accepts it, and the bytes decode to the file', async () => {
    const response = await get('/assets/index-abc.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toContain('accept-encoding');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(BIG_JS);
    expect(response.rawPayload.length).toBeLessThan(BIG_JS.length / 2);
  });

  it('sends gzip to a client without brotli, and the raw file to one that accepts neither', async () => {
    const gzipped = await get('/assets/index-abc.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(BIG_JS);
    const raw = await get('/assets/index-abc.js', { 'accept-encoding': 'identity' });
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body).toBe(BIG_JS);
    expect(raw.headers.vary).toContain('accept-encoding');
  });

  it('compresses API JSON above 1 KiB on the fly, and leaves small answers alone', async () => {
    const big = await get('/api/campaigns', { 'accept-encoding': 'br' });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString()).campaigns.length).toBeGreaterThan(0);
    const small = await get('/api/session', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ user: null });
  });
});

describe('caching by kind of file', () => {
  it('content-hashed assets are immutable for a year', async () => {
    expect((await get('/assets/index-abc.js')).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
  });

  it('HTML revalidates with an ETag, and an unchanged page is a 304', async () => {
    const first = await get('/', { ...html, 'accept-encoding': 'br' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/', { ...html, 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('latest.json is never stored; build meta files are immutable; payloads revalidate as JSON', async () => {
    expect((await get('/_app/builds/latest.json')).headers['cache-control']).toBe('no-store');
    expect((await get(`/_app/builds/meta/${BUILD_ID}.json`)).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    const payload = await get(`/campaign/1/_payload.json?${BUILD_ID}`);
    expect(payload.headers['cache-control']).toBe('public, no-cache');
    expect(payload.headers['content-type']).toMatch(/^application\/json/);
    expect(payload.json()).toMatchObject({ buildId: BUILD_ID, path: '/campaign/1', data: { id: 1 } });
  });
});

describe('documents and missing files', () => {
  it('a missing file under /assets/ or /_app/ is a real 404, never the app', async () => {
    for (const url of ['/assets/gone-123.js', '/_app/builds/meta/old.json']) {
      const response = await get(url, html);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('<html');
    }
  });

  it('a deep link gets the SPA shell (200.html), as HTML that revalidates', async () => {
    const response = await get('/home', html);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SHELL);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('a public page is rendered for its path from the database, with or without a trailing slash, never redirected', async () => {
    for (const url of ['/campaign/1', '/campaign/1/']) {
      const response = await get(url, html);
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(PRERENDERED.replace('campaign one', 'Maple Street Community Garden'));
      expect(response.headers['cache-control']).toBe('public, no-cache');
      expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    }
    expect((await get('/', html)).body).toBe(PRERENDERED.replace('campaign one', 'page /'));
    // A campaign that does not exist (or a draft: the render asks as nobody) gets the shell, as a 404.
    for (const url of ['/campaign/999', '/campaign/5']) {
      const missing = await get(url, html);
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body).toBe(SHELL);
    }
  });

  it('renders a public page as a signed-out visitor sees it, whoever asks', async () => {
    const signedIn = await get('/campaign/5', { ...html, cookie: 'session=anything' });
    expect(signedIn.statusCode).toBe(404);
  });

  it('applies the route rules to documents with a 307, keeping the query', async () => {
    const response = await get('/campaigns?x=1', html);
    expect(response.statusCode).toBe(307);
    expect(response.headers.location).toBe('/?x=1');
  });

  it('never serves source maps, dotfiles or the host config', async () => {
    for (const url of [
      '/assets/index-abc.js.map',
      '/.vite/manifest.json',
      '/_headers',
      '/_redirects',
      '/404.html',
    ]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('a missing file the app would never route is a 404 to a browser too, not the app (no soft 404)', async () => {
    for (const url of [
      '/robots.txt',
      '/sitemap.xml',
      '/favicon.ico',
      '/apple-touch-icon.png',
      '/campaign/1/photo.JPG',
      '/wp-login.php',
      '/static/app.js',
      '/site.webmanifest',
      '/campaign/1/index.html.map',
    ]) {
      const response = await get(url, { accept: '*/*' });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^text\/plain/);
      expect(response.body, url).toBe('Not found.');
    }
    // A file of the build with such a name is still served.
    expect((await get('/favicon.svg', { accept: '*/*' })).statusCode).toBe(200);
  });

  it('a page address that only looks like a file name still reaches the app, which shows its 404', async () => {
    // No route matches them, so nothing is rendered: the shell's app shows its 404 view.
    for (const url of ['/campaign/1.5', '/campaign/components.', '/home.backup', '/v1.2/campaigns']) {
      const response = await get(url, html);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(SHELL);
    }
  });

  it('an undecodable path gets the app for a document and a 400 otherwise', async () => {
    const document = await get('/campaign/%E0%A4%A', html);
    expect(document.statusCode).toBe(200);
    expect(document.body).toBe(SHELL);
    expect((await get('/campaign/%E0%A4%A', { accept: 'application/json' })).statusCode).toBe(400);
    expect((await get('/api/campaigns/%E0%A4%A')).statusCode).toBe(400);
  });

  it('answers other methods on pages and files with 405, saying which methods are allowed', async () => {
    for (const [method, url] of [
      ['DELETE', '/'],
      ['POST', '/campaign/1'],
      ['PUT', '/assets/no-such-file.js'],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.body).toBe('Method not allowed.');
    }
  });
});

/** Sends the request line byte for byte (no client normalises `..` away) and returns status line and body. */
function rawGet(target: string): Promise<string> {
  const { port } = app.server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('connect', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nAccept: */*\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser refuses', () => {
  it('get a 400 with the security headers', async () => {
    const response = await rawGet('/ HTTP/1.1\r\nBad Header Line\r\n\r\nGET /');
    expect(response).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(response).toContain('content-security-policy:');
    expect(response).toContain('x-content-type-options: nosniff');
  });
});

describe('/api never answers HTML', () => {
  /** The body of a raw HTTP response, and whether its content type is JSON. */
  function jsonOf(response: string): { status: number; body: unknown } {
    const [head = '', body = ''] = response.split('\r\n\r\n');
    expect(head).toMatch(/\r\ncontent-type: application\/json/i);
    return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
  }

  it.each([100, 1_000, 10_000, 100_000])(
    'a GET of /api/campaigns/ and %i digits answers JSON with a message, over real HTTP',
    async (length) => {
      const { status, body } = jsonOf(await rawGet(`/api/campaigns/${'1'.repeat(length)}`));
      expect([400, 404, 414, 431]).toContain(status);
      expect(body).toEqual({ message: expect.any(String) });
      if (length >= 10_000) expect([414, 431]).toContain(status);
    },
  );

  it.each([
    ['GET', '/api/nothing-here', 404],
    ['GET', '/api', 404],
    ['GET', `/api/ and 3,000 characters`, 414],
    ['GET', '/api/campaigns/%E0%A4%A', 400],
    // A state-changing request without the page's Origin is refused before any route.
    ['DELETE', '/api/no-such-route', 403],
    ['PUT', '/api/campaigns', 405],
  ])('%s %s answers JSON (%i), also to a browser that asks for HTML', async (method, shown, status) => {
    const url = shown === '/api/ and 3,000 characters' ? `/api/${'x'.repeat(3_000)}` : shown;
    const response = await app.inject({ method: method as 'GET', url, headers: html });
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ message: expect.any(String) });
  });
});

describe('path traversal', () => {
  const attempts = [
    '/assets/../../secret.txt',
    '/../secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/assets/%2E%2E%2F%2E%2E%2Fsecret.txt',
    '/assets/..%5c..%5csecret.txt',
    '/assets/%5c..%5c..%5csecret.txt',
    '/assets/index-abc.js%00.html',
    '/%00',
    '/assets/./index-abc.js',
    '/assets/%2e/index-abc.js',
    '/assets/..%2fsecret.txt',
  ];
  for (const attempt of attempts) {
    it(`refuses ${attempt}`, async () => {
      const response = await rawGet(attempt);
      expect(response).toMatch(/^HTTP\/1\.1 (400|404)/);
      expect(response).not.toContain('outside the build');
      expect(response).toContain('content-security-policy:');
    });
  }

  it('reads paths as decoded segments and refuses dot segments, separators and control characters', () => {
    expect(pathSegments('/campaign/caf%C3%A9')).toEqual(['campaign', 'café']);
    expect(pathSegments('/campaign/%E0%A4%A')).toBeUndefined();
    for (const bad of ['/a/..', '/a/%2E', '/a%2Fb', '/a%5Cb', '/a%00', '/a%0A']) {
      expect(() => pathSegments(bad), bad).toThrow();
    }
  });
});

describe('security headers', () => {
  const kinds: [string, () => Promise<{ statusCode: number; headers: Record<string, unknown> }>][] = [
    ['an HTML page', () => get('/', html)],
    ['a deep link', () => get('/home', html)],
    ['an asset', () => get('/assets/index-abc.js')],
    [
      'a 304',
      async () => get('/', { ...html, 'if-none-match': (await get('/', html)).headers.etag as string }),
    ],
    ['an API answer', () => get('/api/session')],
    [
      'an API error',
      () =>
        app.inject({
          method: 'POST',
          url: '/api/session',
          payload: '{',
          headers: { 'content-type': 'application/json' },
        }),
    ],
    [
      'an oversized body',
      () => app.inject({ method: 'POST', url: '/api/session', payload: 'x'.repeat(70_000) }),
    ],
    ['an icon answer', () => get('/api/_nuxt_icon/lucide.json?icons=house')],
    ['an image error', () => get('/_ipx/w_10/missing.jpg')],
    ['a missing asset', () => get('/assets/nope.js')],
    ['a refused path', () => get('/assets/%2e%2e/x')],
    ['a bad URL', () => get('/api/%E0%A4%A')],
    ['a 405', () => app.inject({ method: 'PUT', url: '/' })],
    ['/healthz', () => get('/healthz')],
  ];
  for (const [kind, request] of kinds) {
    it(`are on ${kind}`, async () => {
      const response = await request();
      const expected = securityHeaders(hashesOfHtml(INDEX), HEADER_OPTIONS);
      for (const name of [
        'x-content-type-options',
        'referrer-policy',
        'cross-origin-opener-policy',
        'permissions-policy',
        'x-frame-options',
        'cross-origin-resource-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-permitted-cross-domain-policies',
      ]) {
        expect(response.headers[name], `${kind}: ${name}`).toBe(expected[name]);
      }
      // Every answer names its request for the logs (server/plugins/requestId.ts), a refused one too.
      expect(response.headers['x-request-id'], kind).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers['content-security-policy'], kind).toMatch(
        /^default-src 'self'; script-src 'self' 'sha256-/,
      );
      expect(response.headers['strict-transport-security'], kind).toBeUndefined();
    });
  }

  it('the CSP allows exactly the inline executable scripts of every HTML file, by hash', async () => {
    const csp = (await get('/', html)).headers['content-security-policy'] as string;
    const scriptSrc = csp.split('; ').find((directive) => directive.startsWith('script-src ')) as string;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(scriptSrc.split(' ').slice(1).sort()).toEqual(
      ["'self'", hash(BOOT), hash('window.__hydrate = 1')].sort(),
    );
    expect(csp).not.toContain(hash('{"a":1}'));
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    // The colour-mode switch's one-frame <style> is allowed by its hash, as no HTML file carries it.
    expect(csp).toContain(`style-src 'self' ${hash(TRANSITION_FREEZE_CSS)};`);
    // The prerendered style attribute is allowed by its exact hash only.
    expect(csp).toContain(`style-src-attr 'unsafe-hashes' ${hash('width: 42%')}`);
    for (const directive of [
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
      "img-src 'self' data:",
      "connect-src 'self' https://api.iconify.design",
    ]) {
      expect(csp).toContain(directive);
    }
  });

  it('allows the icon fallback the client uses', () => {
    expect(ICON_FALLBACK_URL).toBe(config.icons.fallbackEndpoint);
  });

  it('adds an API on another origin to connect-src, and HSTS only when asked', () => {
    const inputs = { scriptHashes: [], styleHashes: [], styleAttributeHashes: [] };
    expect(
      contentSecurityPolicy(inputs, { ...HEADER_OPTIONS, apiBaseUrl: 'https://api.example.org/v1' }),
    ).toContain("connect-src 'self' https://api.example.org https://api.iconify.design");
    expect(contentSecurityPolicy(inputs, { ...HEADER_OPTIONS, apiBaseUrl: '/api' })).toContain(
      "connect-src 'self' https://api.iconify.design;",
    );
    expect(securityHeaders(inputs, { ...HEADER_OPTIONS, hsts: true })['strict-transport-security']).toMatch(
      /^max-age=\d+/,
    );
  });

  it('_headers carries the same security headers, and no header in two rules', () => {
    const headers = securityHeaders(hashesOfHtml(INDEX), HEADER_OPTIONS);
    const file = headersFile(headers);
    for (const [name, value] of Object.entries(headers)) expect(file).toContain(`  ${name}: ${value}\n`);
    const names = file
      .split('\n')
      .filter((line) => line.startsWith('  '))
      .map((line) => line.trim().split(':')[0]);
    const cacheRules = names.filter((name) => name === 'cache-control').length;
    expect(cacheRules).toBe(3);
    expect(file).toMatch(/^\/assets\/\*\n {2}cache-control: public, max-age=31536000, immutable$/m);
  });
});

describe('operations', () => {
  it('/healthz answers 200 with the build id, never cached', async () => {
    const response = await get('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      buildId: BUILD_ID,
      pages: { status: 'ok', database: 'ok', listener: 'listening' },
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('precompression kept the bytes: every .br and .gz decodes to its file', async () => {
    const original = await readFile(path.join(dist, 'assets/index-abc.js'));
    expect(brotliDecompressSync(await readFile(path.join(dist, 'assets/index-abc.js.br')))).toEqual(original);
    expect(gunzipSync(await readFile(path.join(dist, 'assets/index-abc.js.gz')))).toEqual(original);
  });
});
