/**
 * The production server as a process (dist-server/main.mjs on the build): headers of the real build, graceful
 * shutdown on SIGTERM with a request in flight, a clear one-line error for a port in use.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { expect, test } from './fixtures';

const DIST = process.env.E2E_OUT_DIR ?? 'dist';

/** A GET on a given agent (so a test controls which connection carries it), body as text. */
function httpGet(agent: Agent, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

interface Started {
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(env: Record<string, string> = {}, port?: number): Promise<Started> {
  const chosen = port ?? (await getPort());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'campaign-web-server-e2e-'));
  const child = spawn(process.execPath, ['dist-server/main.mjs'], {
    env: {
      ...process.env,
      PORT: String(chosen),
      HOST: '127.0.0.1',
      DIST_DIR: DIST,
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const base = `http://127.0.0.1:${chosen}`;
  if (port === undefined) {
    await expect
      .poll(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status, { timeout: 60_000 })
      .toBe(200);
  }
  return { child, base, output: () => output, exited };
}

test.describe('the production server', () => {
  // Tests that start a process of their own wait for its embedded database to open and migrate: seconds, on a
  // machine that is also running the rest of the suite.
  test.slow();
  test('serves the real build brotli-compressed with a CSP that matches its inline scripts', async ({
    request,
  }) => {
    const html = readFileSync(`${DIST}/index.html`, 'utf8');
    // The unrendered shell: 200.html, what a page the server does not render (`/home`) gets.
    const shell = existsSync(`${DIST}/200.html`) ? readFileSync(`${DIST}/200.html`, 'utf8') : html;
    const rendered = await request.get('/', { headers: { 'accept-encoding': 'br', accept: 'text/html' } });
    expect(rendered.headers()['content-encoding']).toBe('br');
    expect(rendered.headers()['cache-control']).toBe('public, no-cache');
    const response = await request.get('/home', {
      headers: { 'accept-encoding': 'br', accept: 'text/html' },
    });
    expect(response.headers()['content-encoding']).toBe('br');
    expect(response.headers()['cache-control']).toBe('no-cache');
    const csp = response.headers()['content-security-policy'] ?? '';
    // Inline executable scripts: no src and no type (a JSON payload block has a type and needs no hash).
    const inline = [...html.matchAll(/<script(?![^>]*\b(?:src|type)=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      (match) => match[1] ?? '',
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const text of inline) {
      expect(csp).toContain(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
    }
    expect(html).not.toMatch(/\sonclick=/);
    expect(shell).not.toMatch(/\sonclick=|\sstyle=/);
    const entry = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)?.[1] as string;
    const js = await request.get(entry, { headers: { 'accept-encoding': 'br' } });
    expect(js.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers()['content-encoding']).toBe('br');
    expect(await js.text()).not.toContain('sourceMappingURL');
    expect((await request.get(`${entry}.map`)).status()).toBe(404);
    expect((await request.get('/assets/index-0000.js')).status()).toBe(404);
    const health = await request.get('/healthz');
    const latest = JSON.parse(readFileSync(`${DIST}/_app/builds/latest.json`, 'utf8'));
    expect(await health.json()).toMatchObject({ status: 'ok', buildId: latest.id });
  });

  test('the build writes _headers with the same security headers the server sends', async ({ request }) => {
    const file = readFileSync(`${DIST}/_headers`, 'utf8');
    // The shell's answer: a rendered page sends a CSP of its own, with its inline hashes.
    const sent = (await request.get('/home', { headers: { accept: 'text/html' } })).headers();
    for (const name of [
      'x-content-type-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'permissions-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-permitted-cross-domain-policies',
    ]) {
      expect(sent[name], name).toBeTruthy();
      expect(file).toContain(`  ${name}: ${sent[name]}\n`);
    }
    // Static hosts serve TLS, so the file adds upgrade-insecure-requests and HSTS; the rest is the same.
    // The server's policy also allows the sign-in failure page it renders at start (its inline styles and start
    // script), which no file of the build holds: the file's sources are among the server's, directive by directive.
    const csp = /content-security-policy: (.*)/.exec(file)?.[1] as string;
    const directives = (policy: string) =>
      new Map(
        policy.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]),
      );
    const fromFile = directives(csp);
    const fromServer = directives(`${sent['content-security-policy']}; upgrade-insecure-requests`);
    // Its style attributes add a `style-src-attr` the shell alone does not need.
    expect([...fromServer.keys()].filter((name) => name !== 'style-src-attr')).toEqual([...fromFile.keys()]);
    for (const [name, sources] of fromFile)
      expect(fromServer.get(name), name).toEqual(expect.arrayContaining(sources ?? []));
    expect(file).toContain('strict-transport-security: max-age=');
  });

  test('SIGTERM lets a request in flight finish, refuses new ones, and exits 0', async () => {
    const server = await startServer({ DEMO_API_DELAY_MS: '3000', SHUTDOWN_GRACE_MS: '10000' });
    // One kept-alive connection: the warm-up makes sure the server has accepted it before the slow request.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await httpGet(agent, `${server.base}/healthz`)).status).toBe(200);
    let settled = false;
    const inFlight = httpGet(agent, `${server.base}/api/campaigns`).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    // While it drains, a new request is refused (the listener is closed) or told 503.
    await expect
      .poll(() =>
        fetch(`${server.base}/healthz`).then(
          (answer) => answer.status,
          () => 'refused',
        ),
      )
      .not.toBe(200);
    expect(settled, 'the slow request was still in flight when new ones were refused').toBe(false);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body).campaigns.length).toBeGreaterThan(0);
    expect(await server.exited).toBe(0);
    agent.destroy();
    await expect(fetch(`${server.base}/healthz`)).rejects.toThrow();
    // One structured line per request: method, path, status, ms; never a cookie.
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"request"'));
    const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.path === '/api/campaigns');
    expect(logged).toMatchObject({ method: 'GET', path: '/api/campaigns', status: 200 });
    expect(typeof logged.ms).toBe('number');
    expect(server.output()).toContain('"signal":"SIGTERM"');
  });

  test('a port in use is a clear one-line error and exit 1', async () => {
    const first = await startServer();
    const port = new URL(first.base).port;
    const second = await startServer({}, Number(port));
    expect(await second.exited).toBe(1);
    expect(second.output().trim()).toBe(
      `Port ${port} on 127.0.0.1 is already in use: stop what holds it, or set PORT.`,
    );
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });

  test('a client that hangs up mid-response does not take the server down', async () => {
    const server = await startServer({ DEMO_API_DELAY_MS: '500' });
    for (let i = 0; i < 5; i += 1) {
      const controller = new AbortController();
      const pending = fetch(`${server.base}/api/campaigns`, { signal: controller.signal }).catch(
        () => undefined,
      );
      setTimeout(() => controller.abort(), 100);
      await pending;
    }
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});

test.describe('the production server’s configuration', () => {
  /** The built server run once with `env` and `args`; its exit code and everything it printed. */
  function run(env: Record<string, string>, args: string[] = []) {
    return new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['dist-server/main.mjs', ...args], {
        env: {
          ...process.env,
          DIST_DIR: DIST,
          HOST: '127.0.0.1',
          PORT: '4599',
          UV_THREADPOOL_SIZE: '',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk) => (output += chunk));
      child.stderr?.on('data', (chunk) => (output += chunk));
      child.on('exit', (code) => resolve({ code, output }));
    });
  }

  test('a bad value stops the start with exit 1 and a message naming it, every problem at once', async () => {
    const { code, output } = await run({
      PORT: 'abc',
      TRUST_PROXY: 'yes',
      HSTS: '1',
      METRICS_TOKEN: 'short',
    });
    expect(code).toBe(1);
    expect(output).toContain('Could not start the server: the configuration is not valid.');
    expect(output).toContain('PORT="abc" is not valid: expected a whole number from 1 to 65535.');
    expect(output).toContain('TRUST_PROXY="yes" would believe X-Forwarded-For from anyone');
    expect(output).toContain('HSTS is no longer read: PUBLIC_ORIGIN=https://… turns on HSTS');
    expect(output).toContain('METRICS_TOKEN is too short: 5 characters, at least 32 are needed');
  });

  test('--check-config prints the effective configuration, secrets masked, and the thread pool it sized', async () => {
    const token = 'a-metrics-token-of-at-least-32-characters';
    const { code, output } = await run(
      {
        PUBLIC_ORIGIN: 'https://campaigns.example',
        TRUST_PROXY: '1',
        METRICS_TOKEN: token,
        DATABASE_URL: 'postgres://campaigns:s3cret@db:5432/campaigns',
      },
      ['--check-config'],
    );
    expect(code).toBe(0);
    expect(output).toMatch(/^PUBLIC_ORIGIN\s+https:\/\/campaigns\.example$/m);
    expect(output).toMatch(/^TRUST_PROXY\s+1$/m);
    expect(output).toMatch(/^METRICS_TOKEN\s+\*+ \(set\)$/m);
    expect(output).toMatch(/^DATABASE_URL\s+postgres:\/\/campaigns:\*+@db:5432\/campaigns$/m);
    expect(output).toMatch(/^UV_THREADPOOL_SIZE\s+16$/m);
    expect(output).toMatch(/^SESSION_IDLE_MINUTES\s+30 \(default\)$/m);
    expect(output).not.toContain(token);
    expect(output).not.toContain('s3cret');
    expect(output).toContain('The configuration is valid.');
  });

  test('--migrate brings a new database up to date and exits, for MIGRATE_ON_START=0 (the artifact has no tsx), --remove-demo-data with it', async () => {
    // Two processes in turn, each opening an embedded database and migrating it: 19 s on an idle CI machine,
    // past the 30 s default on a busy one (seen at a load of 14).
    test.slow();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'campaign-web-migrate-e2e-'));
    try {
      const first = await run({ DATA_DIR: dataDir }, ['--migrate']);
      expect(first.code).toBe(0);
      expect(first.output).toMatch(/\[migrate\] .*pglite: ran 0001_initial, .*It is up to date\./);
      expect(first.output).not.toContain('demo account');
      // --remove-demo-data is read there too (what it removes: tests/api/database/migrate.test.ts).
      const again = await run({ DATA_DIR: dataDir }, ['--migrate', '--remove-demo-data']);
      expect(again.code).toBe(0);
      expect(again.output).toContain('is up to date: no migration to run.');
      expect(again.output).toContain(
        '[migrate] No demo account with a published password is left: nothing to remove.',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
