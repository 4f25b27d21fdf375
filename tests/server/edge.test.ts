// @vitest-environment node
/**
 * The production server at the edge, built from the production recipe exactly as `npm start` builds
 * it (deploy/production.env read through server/environment.ts and server/options.ts), behind one reverse proxy
 * that terminates TLS: the client's address is the one the proxy appended, whatever the client wrote before it;
 * the site is PUBLIC_ORIGIN and nothing else (421 for another Host, X-Forwarded-Host never believed); an https
 * origin gives the __Host- Secure cookie and HSTS; the owner signs in while an attacker is refused.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OpenDatabase } from '../../api/database/open';
import { buildServer } from '../../server/app';
import { readServerEnvironment } from '../../server/environment';
import { serverLayout } from '../../server/layout';
import { serverOptionsFrom } from '../../server/options';
import { openTestDatabase } from '../support/apiHarness';
import { fakeBuild } from '../support/fakeBuild';

// Several sign-ins per test, each an argon2id hash: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const ROOT = path.resolve(import.meta.dirname, '../..');
/** A checkout's layout, as server/main.ts finds it. */
const LAYOUT = serverLayout(new URL('../../server/main.ts', import.meta.url).href);
const SITE = 'campaigns.example';
const PROXY = '127.0.0.1';

/** deploy/production.env as the server reads it: `NAME=value` lines, comments and blanks skipped. */
function recipe(): Record<string, string> {
  const lines = readFileSync(path.join(ROOT, 'deploy/production.env'), 'utf8').split('\n');
  return Object.fromEntries(
    lines
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/**
 * compose.yaml's app service as the container gets it: the files it reads with `env_file`, and its own
 * `environment` (which compose puts over them). Read from the file's own layout (two-space indents, a map of
 * `NAME: value`), which this test pins: a change of layout fails here, not silently.
 */
function composeApp(): { envFiles: string[]; environment: Record<string, string> } {
  const lines = readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8').split('\n');
  const start = lines.indexOf('  app:');
  expect(start, 'compose.yaml has no `  app:` service').toBeGreaterThan(0);
  const end = lines.findIndex((line, i) => i > start && /^ {0,2}\S/.test(line));
  const block = lines.slice(start + 1, end === -1 ? undefined : end);
  const envFiles: string[] = [];
  const environment: Record<string, string> = {};
  let section = '';
  for (const line of block) {
    const key = /^ {4}([a-z_]+):\s*(.*)$/.exec(line);
    if (key) {
      section = key[1] as string;
      if (section === 'env_file' && key[2]) envFiles.push(key[2] as string);
      continue;
    }
    const item = /^ {6}- (\S+)$/.exec(line);
    if (item && section === 'env_file') envFiles.push(item[1] as string);
    const pair = /^ {6}([A-Z_]+): (.*)$/.exec(line);
    if (pair && section === 'environment') environment[pair[1] as string] = (pair[2] as string).trim();
  }
  return { envFiles, environment };
}

/** Compose's `${NAME}`, `${NAME:?message}` and `${NAME:-default}`, with the deployment's values in `shell`. */
function interpolate(value: string, shell: Record<string, string>): string {
  return value
    .replace(/^"(.*)"$/, '$1')
    .replace(/\$\{([A-Z_]+)(?::([?-])([^}]*))?\}/g, (_whole, name: string, kind?: string, rest?: string) => {
      const set = shell[name];
      if (set !== undefined && set !== '') return set;
      if (kind === '-') return rest ?? '';
      throw new Error(`compose.yaml needs ${name}: ${rest ?? ''}`);
    });
}

let root: string;
let database: OpenDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  const built = await fakeBuild('campaign-web-edge-');
  root = built.root;
  const dist = built.dist;
  database = await openTestDatabase('pglite');
  const env = readServerEnvironment({
    ...recipe(),
    // The test's own folders and quiet log; the per-address limit low enough to reach.
    DATA_DIR: path.join(root, 'data'),
    DIST_DIR: dist,
    LOG_LEVEL: 'silent',
    SIGN_IN_FAILURES_PER_ADDRESS: '12',
  });
  app = await buildServer({ ...serverOptionsFrom(env, LAYOUT), database });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  await rm(root, { recursive: true, force: true });
});

/** A request as the proxy forwards it: from the proxy's socket, the visitor's Host, the client appended last. */
function viaProxy(options: {
  method?: 'GET' | 'POST';
  url: string;
  client: string;
  forwardedFor?: string;
  headers?: Record<string, string>;
  payload?: unknown;
}) {
  const chain = options.forwardedFor ? `${options.forwardedFor}, ${options.client}` : options.client;
  return app.inject({
    method: options.method ?? 'GET',
    url: options.url,
    remoteAddress: PROXY,
    headers: {
      host: SITE,
      'x-forwarded-for': chain,
      'x-forwarded-proto': 'https',
      ...(options.method === 'POST'
        ? { origin: `https://${SITE}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }
        : {}),
      ...options.headers,
    },
    ...(options.payload === undefined ? {} : { payload: JSON.stringify(options.payload) }),
  });
}

const signIn = (client: string, password: string, forwardedFor?: string, email = 'demo@example.com') =>
  viaProxy({
    method: 'POST',
    url: '/api/session',
    client,
    ...(forwardedFor ? { forwardedFor } : {}),
    payload: { email, password },
  });

describe('the production recipe', () => {
  it('reads as a deployment behind one TLS proxy expects', () => {
    const options = serverOptionsFrom(readServerEnvironment(recipe()), LAYOUT);
    expect(options.trustProxy).toBe(1);
    expect(options.publicOrigin).toBe('https://campaigns.example');
    expect(options.api?.secureCookie).toBe(true);
    expect(options.headers.hsts).toBe(true);
  });

  it('is what compose.yaml runs: the app reads deploy/production.env, and adds only what the deployment alone knows', () => {
    const compose = composeApp();
    expect(compose.envFiles).toEqual(['deploy/production.env']);
    expect(Object.keys(compose.environment).sort()).toEqual([
      'DATABASE_URL',
      'METRICS_TOKEN',
      'PUBLIC_ORIGIN',
      'REPORTS_TOKEN',
    ]);
    // The container's environment: the recipe, then compose's own values over it, with a deployment's shell.
    const shell = {
      PUBLIC_ORIGIN: 'https://neighbours.example',
      POSTGRES_PASSWORD: 'pw',
      REPORTS_TOKEN: 'r'.repeat(32),
      METRICS_TOKEN: 'm'.repeat(32),
    };
    const container = {
      ...recipe(),
      ...Object.fromEntries(
        Object.entries(compose.environment).map(([name, value]) => [name, interpolate(value, shell)]),
      ),
    };
    const options = serverOptionsFrom(readServerEnvironment(container), LAYOUT);
    expect(options.api.database).toEqual({
      kind: 'postgres',
      url: 'postgres://campaign_web:pw@db:5432/campaign_web',
      poolSize: 10,
    });
    expect(options.api.demoData).toBe(false);
    expect(options.publicOrigin).toBe('https://neighbours.example');
    expect(options.trustProxy).toBe(1);
    expect(options.metrics).toMatchObject({ token: shell.METRICS_TOKEN });
    expect(() => interpolate(compose.environment.PUBLIC_ORIGIN ?? '', {})).toThrow(/needs PUBLIC_ORIGIN/);
  });

  it('keeps the demo data out, whatever database the deployment uses', () => {
    // The embedded database's default is demo data on: the recipe turns it off for both.
    expect(recipe().DEMO_DATA).toBe('0');
    expect(serverOptionsFrom(readServerEnvironment(recipe()), LAYOUT).api.demoData).toBe(false);
  });

  it('gives a sign-in the __Host- Secure cookie, and every answer HSTS', async () => {
    const res = await signIn('203.0.113.10', 'demo-password');
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(
      /^__Host-sid=[\w-]{43}; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(
      (await viaProxy({ url: '/', client: '203.0.113.10' })).headers['strict-transport-security'],
    ).toMatch(/^max-age=/);
  });

  it.each([
    ['GET', '/'],
    ['GET', '/campaign/1'],
    ['GET', '/api/session'],
    ['POST', '/api/session'],
    ['POST', '/login'],
    ['GET', '/metrics'],
  ] as const)('answers %s %s for another Host with 421, before anything else', async (method, url) => {
    const res = await viaProxy({
      method,
      url,
      client: '203.0.113.11',
      headers: { host: 'evil.example', origin: 'http://evil.example' },
      payload: {},
    });
    expect(res.statusCode).toBe(421);
    expect(res.body).toBe('Misdirected request: this server answers for https://campaigns.example only.');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers /healthz whatever the Host (the orchestrator asks by its own name)', async () => {
    const res = await viaProxy({ url: '/healthz', client: '10.0.0.9', headers: { host: 'app-1:4173' } });
    expect(res.statusCode).toBe(200);
  });

  it('never takes X-Forwarded-Host for the site: a forged host and origin are refused', async () => {
    const res = await viaProxy({
      method: 'POST',
      url: '/api/session',
      client: '203.0.113.12',
      headers: { 'x-forwarded-host': 'evil.example', origin: 'http://evil.example' },
      payload: { email: 'demo@example.com', password: 'demo-password' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('never takes X-Forwarded-Host for the site without PUBLIC_ORIGIN either: the raw Host is the site', async () => {
    // The environment of the finding: trust in the proxy on, no PUBLIC_ORIGIN. Fastify's `request.host` is then
    // X-Forwarded-Host, so a check that read it would take evil.example for this site.
    const { PUBLIC_ORIGIN: _unset, ...withoutOrigin } = recipe();
    const direct = await buildServer({
      ...serverOptionsFrom(
        readServerEnvironment({
          ...withoutOrigin,
          DATA_DIR: path.join(root, 'data'),
          DIST_DIR: path.join(root, 'dist'),
          LOG_LEVEL: 'silent',
        }),
        LAYOUT,
      ),
      database,
    });
    try {
      const post = (client: string, url: string, origin: string, form: boolean) =>
        direct.inject({
          method: 'POST',
          url,
          remoteAddress: PROXY,
          headers: {
            host: 'localhost',
            'x-forwarded-for': client,
            'x-forwarded-host': 'evil.example',
            origin,
            'sec-fetch-site': 'same-origin',
            'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
          },
          payload: form
            ? 'email=demo%40example.com&password=demo-password'
            : JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
        });
      for (const [url, form] of [
        ['/api/session', false],
        ['/login', true],
      ] as const) {
        const forged = await post('203.0.113.50', url, 'http://evil.example', form);
        expect(forged.statusCode, url).toBe(403);
        expect(forged.headers['set-cookie'], url).toBeUndefined();
        // The same request from a page of the site it really reached signs in.
        const own = await post('203.0.113.51', url, 'http://localhost', form);
        expect(own.statusCode, url).toBe(form ? 303 : 200);
        expect(String(own.headers['set-cookie']), url).toMatch(/^sid=/);
      }
    } finally {
      await direct.close();
    }
  });

  it('limits a client that rotates its X-Forwarded-For like any other: the proxy’s entry is the address', async () => {
    const statuses = [];
    for (let i = 0; i < 13; i++) {
      const res = await signIn('198.51.100.20', 'wrong', `192.0.2.${i}`, `nobody${i}@example.com`);
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 12)).toEqual(Array(12).fill(401));
    expect(statuses[12]).toBe(429);
  });

  it('lets the owner sign in while an attacker guessing their password is refused', async () => {
    const attacker = '198.51.100.30';
    for (let i = 0; i < 10; i++) expect((await signIn(attacker, `guess ${i}`)).statusCode).toBe(401);
    expect((await signIn(attacker, 'demo-password')).statusCode).toBe(429);
    expect((await signIn('203.0.113.31', 'demo-password')).statusCode).toBe(200);
  });
  it('counts the per-address API limit by the client the proxy names, and keeps the proxy’s request id', async () => {
    const limited = await buildServer({
      ...serverOptionsFrom(
        readServerEnvironment({
          ...recipe(),
          DATA_DIR: path.join(root, 'data'),
          DIST_DIR: path.join(root, 'dist'),
          LOG_LEVEL: 'silent',
          API_REQUESTS_PER_MINUTE: '2',
        }),
        LAYOUT,
      ),
      database,
    });
    try {
      const get = (client: string, forwardedFor?: string) =>
        limited.inject({
          url: '/api/session',
          remoteAddress: PROXY,
          headers: {
            host: SITE,
            'x-forwarded-for': forwardedFor ? `${forwardedFor}, ${client}` : client,
            'x-request-id': `edge-${client}`,
          },
        });
      // One client rotating what it puts in front of the proxy's entry: still one address.
      const statuses = [];
      for (const forged of ['192.0.2.1', '192.0.2.2', '192.0.2.3'])
        statuses.push((await get('198.51.100.40', forged)).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
      // Another client behind the same proxy is not held back by the first.
      const other = await get('198.51.100.41');
      expect(other.statusCode).toBe(200);
      expect(other.headers['x-request-id']).toBe('edge-198.51.100.41');
    } finally {
      await limited.close();
    }
  });
});
