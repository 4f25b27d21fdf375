// @vitest-environment node
/**
 * The production artifact as a deployment gets it: `.output/` copied to a folder outside the checkout, its
 * runtime dependencies installed and the server started there with the runtime stage's own commands, read from
 * the Dockerfile (no Docker engine runs here). Nothing of the checkout can be reached from there: no
 * node_modules above it, no sources, no dist/.
 *
 * Needs the build: `npm run build` first (`npm test` runs this right after it, as `npm run test:output`; the
 * unit run leaves it out). OUTPUT_DIR points at another artifact.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/apiHarness';

const run = promisify(execFile);
const ROOT = process.cwd();
const OUTPUT = path.resolve(process.env.OUTPUT_DIR || path.join(ROOT, '.output'));
/** npm ci of ~200 packages (from npm's cache when it has them) and a first start (initdb, migrations, argon2). */
const SETUP_MS = 240_000;

/**
 * The runtime stage of the Dockerfile: the `RUN npm ci …` after `COPY --from=build`, and the CMD. Read from the
 * file, so the image and this test cannot drift apart.
 */
async function runtimeStage(): Promise<{
  install: string[];
  command: string[];
  env: Record<string, string>;
  healthcheck: string[];
  user: string | undefined;
  volumes: string[];
}> {
  const dockerfile = await readFile(path.join(ROOT, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m);
  const last = stages.at(-1) ?? '';
  expect(last).toMatch(/^node:24-bookworm-slim AS runtime/);
  const install = /^RUN (npm ci [^&\n]+?)(?:\s*&&.*)?$/m.exec(last)?.[1];
  const cmd = /^CMD (\[.*\])$/m.exec(last)?.[1];
  if (!install || !cmd) throw new Error('The Dockerfile has no runtime `RUN npm ci …` or no CMD.');
  // ENV lines, `NAME=value` pairs joined by `\` continuations.
  const envBlock = /^ENV ((?:.*\\\n)*.*)$/m.exec(last)?.[1] ?? '';
  const env = Object.fromEntries(
    [...envBlock.matchAll(/([A-Z_]+)=(\S+)/g)].map((match) => [match[1] as string, match[2] as string]),
  );
  // `HEALTHCHECK [--options] \` and, on a following line, `CMD [...]` (the exec form).
  const healthcheck = /^HEALTHCHECK (?:[^\n]*\\\n)*?\s*CMD (\[.*\])$/m.exec(last)?.[1];
  if (!healthcheck) throw new Error('The Dockerfile has no runtime HEALTHCHECK … CMD [...].');
  const volumes = [...last.matchAll(/^VOLUME (\[.*\])$/gm)].flatMap(
    (match) => JSON.parse(match[1] as string) as string[],
  );
  return {
    install: install.trim().split(/\s+/),
    command: JSON.parse(cmd) as string[],
    env,
    healthcheck: JSON.parse(healthcheck) as string[],
    user: /^USER (\S+)$/m.exec(last)?.[1],
    volumes,
  };
}

/** The package names a bundled module imports (`from "pkg"`, `from "@scope/pkg/sub"`, `import("pkg")`). */
function bareImports(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"'./][^"']*)["']/g)) {
    const specifier = match[1] as string;
    if (specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string));
  }
  return [...names];
}

let stage: Awaited<ReturnType<typeof runtimeStage>>;
let dir: string;
let app: string;
let port: number;
let base: string;
let server: ChildProcess | undefined;
let serverOutput = '';
let exited: Promise<number | null> | undefined;

beforeAll(async () => {
  if (!existsSync(path.join(OUTPUT, 'server/index.mjs'))) {
    throw new Error(`No production artifact in ${OUTPUT}: run \`npm run build\` first.`);
  }
  stage = await runtimeStage();
  dir = await mkdtemp(path.join(tmpdir(), 'campaign-web-output-'));
  app = path.join(dir, 'app');
  // `COPY --from=build /src/.output ./`
  await cp(OUTPUT, app, { recursive: true });
  const [npm, ...args] = stage.install;
  // npm's cache (filled by the checkout's own `npm ci`) is used first; the registry only for what it lacks.
  await run(npm as string, args, {
    cwd: app,
    env: { ...process.env, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' },
    timeout: SETUP_MS,
  });
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const [node, ...entry] = stage.command;
  // The image's environment, then what differs here: a free port on loopback, a throw-away DATA_DIR.
  server = spawn(node === 'node' ? process.execPath : (node as string), entry, {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? '',
      ...stage.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'warn',
      // Long enough for the HEALTHCHECK command to see the drain after SIGTERM (the last test).
      DRAIN_DELAY_MS: '5000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk) => {
    serverOutput += chunk;
  });
  server.stderr?.on('data', (chunk) => {
    serverOutput += chunk;
  });
  const child = server;
  exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + SETUP_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${serverOutput}`);
    const ok = await fetch(`${base}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`The server did not answer /healthz:\n${serverOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 2 * SETUP_MS);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGKILL');
    await exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

const page = (url: string) => fetch(`${base}${url}`, { headers: { accept: 'text/html' } });

/** The image's HEALTHCHECK command as Docker runs it in the container: its environment, this server's port. */
async function healthcheck(): Promise<{ code: number }> {
  const [node, ...args] = stage.healthcheck;
  return run(node === 'node' ? process.execPath : (node as string), args, {
    cwd: app,
    env: { PATH: process.env.PATH ?? '', ...stage.env, PORT: String(port) },
    timeout: 30_000,
  }).then(
    () => ({ code: 0 }),
    (error: { code?: number }) => ({ code: error.code ?? -1 }),
  );
}

describe('the production artifact (.output), installed and started outside the checkout', () => {
  it('holds the server, the public files and the images, and no path above its own folder is reachable', async () => {
    const files = await readdir(app);
    expect(files.sort()).toEqual(['node_modules', 'package-lock.json', 'package.json', 'public', 'server']);
    expect(existsSync(path.join(app, 'server/index.mjs'))).toBe(true);
    expect(existsSync(path.join(app, 'public/index.html'))).toBe(true);
    expect((await readdir(path.join(app, 'server/images/campaigns'))).length).toBeGreaterThan(0);
    // Nothing of the build tool is deployed.
    expect(existsSync(path.join(app, 'public/.vite'))).toBe(false);
    expect(existsSync(path.join(app, 'server/finalize.mjs'))).toBe(false);
    // Node would find a node_modules in a folder above; there is none, so every import resolved inside.
    expect(existsSync(path.join(dir, 'node_modules'))).toBe(false);
  });

  it('lists exactly the packages the server bundle imports as its dependencies, and npm installed only those', async () => {
    const manifest = JSON.parse(await readFile(path.join(app, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies?: unknown;
      scripts: Record<string, string>;
    };
    const serverDir = path.join(app, 'server');
    const imported = new Set<string>();
    for (const file of (await readdir(serverDir)).filter((name) => name.endsWith('.mjs'))) {
      for (const name of bareImports(await readFile(path.join(serverDir, file), 'utf8'))) imported.add(name);
    }
    // Read at run time by name rather than imported: the icon collection (server/routes/icons.ts resolves
    // `@iconify-json/{prefix}`). sharp, ipx's image library, is imported by the server too (server/routes/images.ts sets
    // its threads) and must be there whether or not it is.
    const resolvedAtRunTime = ['@iconify-json/lucide', 'sharp'];
    expect(Object.keys(manifest.dependencies).sort()).toEqual(
      [...new Set([...imported, ...resolvedAtRunTime])].sort(),
    );
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.scripts).toEqual({ start: 'node server/index.mjs' });
    // Browser-only packages stayed behind.
    for (const name of ['react', 'react-dom', 'xstate', 'vite', '@pandacss/dev']) {
      expect(existsSync(path.join(app, 'node_modules', name))).toBe(false);
    }
  });

  it('renders the landing page on request from its database, with the React the bundle carries', async () => {
    const res = await page('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('Live campaigns');
    expect(html).toContain('id="__CAMPAIGN_PAYLOAD__"');
  });

  it('renders a campaign with its data in the HTML', async () => {
    const res = await page('/campaign/1');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>Maple Street Community Garden<\/h1>/);
    expect(html).toContain('"path":"/campaign/1"');
  });

  it('answers the API from the embedded database in DATA_DIR', async () => {
    const res = await fetch(`${base}/api/session`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: null });
    const list = (await (await fetch(`${base}/api/campaigns`)).json()) as { campaigns: { id: number }[] };
    expect(list.campaigns.map((campaign) => campaign.id)).toContain(1);
    expect(existsSync(path.join(dir, 'data', 'pglite'))).toBe(true);
  });

  it('renders an image from the images it carries', async () => {
    const res = await fetch(`${base}/_ipx/w_64&f_webp/campaigns/campaign-1.jpg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('answers /healthz with the build it serves and its page renderer ready', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    const latest = JSON.parse(await readFile(path.join(app, 'public/_app/builds/latest.json'), 'utf8')) as {
      id: string;
    };
    // The artifact renders pages on request: its page renderer is up, listening for changes, on a reachable database.
    expect(await res.json()).toMatchObject({
      status: 'ok',
      buildId: latest.id,
      pages: { status: 'ok', database: 'ok', listener: 'listening', lastRenderFailure: null },
    });
  });

  it('is healthy by the image’s own HEALTHCHECK command, which asks /healthz', async () => {
    expect(stage.healthcheck.slice(0, 2)).toEqual(['node', '-e']);
    expect(stage.healthcheck[2]).toContain('/healthz`');
    expect(await healthcheck()).toEqual({ code: 0 });
  });

  it('runs as node, not root, with DATA_DIR on a volume, listening on every interface', () => {
    expect(stage.user).toBe('node');
    expect(stage.env.DATA_DIR).toBe('/data');
    expect(stage.volumes).toEqual([stage.env.DATA_DIR]);
    expect(stage.env.HOST).toBe('0.0.0.0');
    expect(stage.env.NODE_ENV).toBe('production');
  });

  it('stops on SIGTERM with exit 0, unhealthy by the same command while it drains and once it is gone', {
    timeout: 60_000,
  }, async () => {
    server?.kill('SIGTERM');
    // Draining: /healthz answers 503 while other requests are still served.
    expect(await healthcheck()).toEqual({ code: 1 });
    expect((await page('/')).status).toBe(200);
    expect(await exited).toBe(0);
    expect(await healthcheck()).toEqual({ code: 1 });
  });
});
