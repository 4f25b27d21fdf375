// @vitest-environment node
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PreviewServer, ViteDevServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiHandler, type ApiOptions, type ApiResponse, createApi } from '../server/api';
import { describeProblem } from '../server/db';
import type { Middleware } from '../server/http';
import { verifyPassword } from '../server/passwords';
import { demoApi } from '../server/plugin';

const tempDirs: string[] = [];

afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'campaign-web-api-'));
  tempDirs.push(dir);
  return dir;
}

interface Logged {
  warnings: unknown[][];
  errors: unknown[][];
}

async function setup(options: Partial<ApiOptions> = {}) {
  const dataDir = options.dataDir ?? (await tempDir());
  const logged: Logged = { warnings: [], errors: [] };
  const log = {
    warn: (...args: unknown[]) => logged.warnings.push(args),
    error: (...args: unknown[]) => logged.errors.push(args),
  };
  const api = createApi({ dataDir, log, ...options });
  return { api, dataDir, logged };
}

function call(
  api: ApiHandler,
  method: string,
  url: string,
  init: { body?: unknown; rawBody?: string; cookie?: string } = {},
): Promise<ApiResponse> {
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  return api({ method, url, headers: init.cookie ? { cookie: init.cookie } : {}, body });
}

/** Signs in and returns the `sid=...` pair to send back as a cookie. */
async function signIn(
  api: ApiHandler,
  email = 'demo@example.com',
  password = 'demo-password',
): Promise<string> {
  const res = await call(api, 'POST', '/api/session', { body: { email, password } });
  expect(res.status).toBe(200);
  const pair = res.headers['set-cookie']?.split(';')[0];
  if (!pair) throw new Error('no session cookie');
  return pair;
}

function ids(res: ApiResponse): number[] {
  return (res.body as { campaigns: { id: number }[] }).campaigns.map((c) => c.id);
}

describe('seed data', () => {
  it('has password hashes that verify', async () => {
    const seed = JSON.parse(await readFile(new URL('../server/fixtures/seed.json', import.meta.url), 'utf8'));
    const [demo, sam] = seed.users;
    expect(await verifyPassword('demo-password', demo.passwordHash)).toBe(true);
    expect(await verifyPassword('sam-password', sam.passwordHash)).toBe(true);
    expect(await verifyPassword('demo-password', sam.passwordHash)).toBe(false);
    expect(describeProblem(JSON.stringify(seed))).toBeUndefined();
  });
});

describe('POST /api/session', () => {
  it('signs in and sets a hardened session cookie', async () => {
    const { api } = await setup();
    const res = await call(api, 'POST', '/api/session', {
      body: { email: '  Demo@Example.COM ', password: 'demo-password' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' } });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const cookie = res.headers['set-cookie'] ?? '';
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain(`Max-Age=${7 * 24 * 60 * 60}`);
  });

  it('rejects a wrong password or unknown email with the same exact message', async () => {
    const { api } = await setup();
    for (const body of [
      { email: 'demo@example.com', password: 'nope' },
      { email: 'nobody@example.com', password: 'demo-password' },
      { email: 'sam@example.com', password: 'demo-password' },
    ]) {
      const res = await call(api, 'POST', '/api/session', { body });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Incorrect email or password' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('answers 400 for missing, empty, non-string or non-JSON payloads', async () => {
    const { api } = await setup();
    const bad: { body?: unknown; rawBody?: string }[] = [
      {},
      { body: {} },
      { body: { email: 'demo@example.com' } },
      { body: { email: '   ', password: 'demo-password' } },
      { body: { email: 'demo@example.com', password: '' } },
      { body: { email: 42, password: 'demo-password' } },
      { body: ['demo@example.com', 'demo-password'] },
      { body: null },
      { rawBody: '{"email": "demo@example.com", ' },
      { rawBody: 'email=demo@example.com&password=demo-password' },
    ];
    for (const init of bad) {
      const res = await call(api, 'POST', '/api/session', init);
      expect(res.status, JSON.stringify(init)).toBe(400);
      expect((res.body as { message: string }).message).toMatch(/^[A-Z].+\.$/);
    }
    const missing = await call(api, 'POST', '/api/session', { body: { email: 'demo@example.com' } });
    expect(missing.body).toEqual({ message: 'Email and password are required.' });
  });
});

describe('GET and DELETE /api/session', () => {
  it('reads the signed-in user, then clears the session idempotently', async () => {
    const { api } = await setup();
    expect((await call(api, 'GET', '/api/session')).body).toEqual({ user: null });

    const cookie = await signIn(api);
    const signedIn = await call(api, 'GET', '/api/session', { cookie: `theme=dark; ${cookie}` });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({
      user: { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' },
    });

    for (let i = 0; i < 2; i++) {
      const res = await call(api, 'DELETE', '/api/session', { cookie });
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      expect(res.headers['set-cookie']).toMatch(/^sid=; .*Max-Age=0/);
    }
    expect((await call(api, 'GET', '/api/session', { cookie })).body).toEqual({ user: null });
    expect((await call(api, 'DELETE', '/api/session')).status).toBe(204);
  });

  it('ignores unknown and expired sessions', async () => {
    let now = Date.UTC(2025, 5, 1);
    const { api } = await setup({ now: () => now });
    const cookie = await signIn(api);
    expect((await call(api, 'GET', '/api/session', { cookie: 'sid=forged' })).body).toEqual({ user: null });
    now += 7 * 24 * 60 * 60 * 1000 - 1;
    expect((await call(api, 'GET', '/api/session', { cookie })).body).not.toEqual({ user: null });
    now += 1;
    expect((await call(api, 'GET', '/api/session', { cookie })).body).toEqual({ user: null });
  });
});

describe('GET /api/campaigns', () => {
  it('lists public campaigns, featured first then by id', async () => {
    const { api } = await setup();
    const res = await call(api, 'GET', '/api/campaigns');
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([1, 2, 3, 6, 4]);
    const campaigns = (res.body as { campaigns: Record<string, unknown>[] }).campaigns;
    expect(campaigns.every((c) => c.status !== 'draft')).toBe(true);
    expect(Object.keys(campaigns[0] ?? {}).sort()).toEqual(
      ['featured', 'goal', 'id', 'image', 'raised', 'status', 'summary', 'title'].sort(),
    );
    expect(campaigns[0]?.image).toBe('/campaigns/campaign-1.jpg');
  });

  it('gives campaigns stored before images existed a null image', async () => {
    const { api, dataDir } = await setup();
    const seed = JSON.parse(await readFile(new URL('../server/fixtures/seed.json', import.meta.url), 'utf8'));
    for (const campaign of seed.campaigns) delete campaign.image;
    await writeFile(path.join(dataDir, 'db.json'), JSON.stringify(seed));
    const res = await call(api, 'GET', '/api/campaigns/1');
    expect((res.body as { campaign: Record<string, unknown> }).campaign.image).toBeNull();
  });

  it('filters with ?featured=1', async () => {
    const { api } = await setup();
    const res = await call(api, 'GET', '/api/campaigns?featured=1');
    expect(ids(res)).toEqual([1, 2, 3, 6]);
  });
});

describe('GET /api/campaigns/:id', () => {
  it('returns the campaign with its owner name', async () => {
    const { api } = await setup();
    const res = await call(api, 'GET', '/api/campaigns/2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      campaign: { id: 2, ownerId: 'u2', ownerName: 'Sam Rivera', status: 'active', featured: true },
    });
    const campaign = (res.body as { campaign: Record<string, unknown> }).campaign;
    expect(typeof campaign.description).toBe('string');
    expect(campaign.startsOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('answers 404 for unknown ids and for drafts seen by anyone but their owner', async () => {
    const { api } = await setup();
    expect(await call(api, 'GET', '/api/campaigns/999')).toMatchObject({
      status: 404,
      body: { message: 'Campaign 999 does not exist.' },
    });
    expect((await call(api, 'GET', '/api/campaigns/5')).status).toBe(404);
    const sam = await signIn(api, 'sam@example.com', 'sam-password');
    expect((await call(api, 'GET', '/api/campaigns/5', { cookie: sam })).status).toBe(404);
    const demo = await signIn(api);
    expect((await call(api, 'GET', '/api/campaigns/5', { cookie: demo })).status).toBe(200);
  });

  it.each(['01', 'abc', '0', '-1', '1.5', '1e3'])('answers 400 for id %j', async (id) => {
    const { api } = await setup();
    expect(await call(api, 'GET', `/api/campaigns/${id}`)).toMatchObject({
      status: 400,
      body: { message: 'Campaign id must be a positive whole number.' },
    });
  });
});

describe('GET /api/me/campaigns', () => {
  it('needs a session', async () => {
    const { api } = await setup();
    expect(await call(api, 'GET', '/api/me/campaigns')).toMatchObject({
      status: 401,
      body: { message: 'You need to sign in first.' },
    });
  });

  it("lists the signed-in user's campaigns, drafts included", async () => {
    const { api } = await setup();
    expect(ids(await call(api, 'GET', '/api/me/campaigns', { cookie: await signIn(api) }))).toEqual([
      1, 3, 5, 6,
    ]);
    const sam = await signIn(api, 'sam@example.com', 'sam-password');
    expect(ids(await call(api, 'GET', '/api/me/campaigns', { cookie: sam }))).toEqual([2, 4]);
  });
});

describe('/api/profile', () => {
  it('reads the profile and needs a session', async () => {
    const { api } = await setup();
    expect((await call(api, 'GET', '/api/profile')).status).toBe(401);
    expect((await call(api, 'PATCH', '/api/profile', { body: { displayName: 'X' } })).status).toBe(401);
    const res = await call(api, 'GET', '/api/profile', { cookie: await signIn(api) });
    expect(res).toMatchObject({
      status: 200,
      body: { profile: { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' } },
    });
  });

  it('updates the trimmed display name and persists it', async () => {
    const { api, dataDir } = await setup();
    const cookie = await signIn(api);
    const res = await call(api, 'PATCH', '/api/profile', { cookie, body: { displayName: '  Dee Moe 🌱 ' } });
    expect(res).toMatchObject({ status: 200, body: { profile: { id: 'u1', displayName: 'Dee Moe 🌱' } } });
    expect((await call(api, 'GET', '/api/session', { cookie })).body).toMatchObject({
      user: { displayName: 'Dee Moe 🌱' },
    });
    const stored = JSON.parse(await readFile(path.join(dataDir, 'db.json'), 'utf8'));
    expect(stored.users[0].displayName).toBe('Dee Moe 🌱');
  });

  it('validates the display name', async () => {
    const { api } = await setup();
    const cookie = await signIn(api);
    const cases: [unknown, string][] = [
      [{ displayName: '   ' }, 'Display name must be between 1 and 60 characters.'],
      [{ displayName: 'x'.repeat(61) }, 'Display name must be between 1 and 60 characters.'],
      [{ displayName: 'Tab\there' }, 'Display name must not contain control characters.'],
      [{ displayName: 7 }, 'Display name is required and must be text.'],
      [{}, 'Display name is required and must be text.'],
    ];
    for (const [body, message] of cases) {
      expect(await call(api, 'PATCH', '/api/profile', { cookie, body })).toMatchObject({
        status: 400,
        body: { message },
      });
    }
    expect((await call(api, 'PATCH', '/api/profile', { cookie, rawBody: 'not json' })).status).toBe(400);
    // Sixty characters, counted as the user sees them.
    const sixty = '🌱'.repeat(60);
    expect((await call(api, 'PATCH', '/api/profile', { cookie, body: { displayName: sixty } })).status).toBe(
      200,
    );
  });
});

describe('routing', () => {
  it('answers 404 for unknown paths and 405 with Allow for wrong methods', async () => {
    const { api } = await setup();
    expect(await call(api, 'GET', '/api/nope?x=1')).toMatchObject({
      status: 404,
      body: { message: 'No API route for GET /api/nope.' },
    });
    const res = await call(api, 'PUT', '/api/session');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST, DELETE');
    expect((res.body as { message: string }).message).toMatch(/\.$/);
  });

  it('turns unexpected failures into a logged 500', async () => {
    const parent = await tempDir();
    const notADir = path.join(parent, 'file');
    await writeFile(notADir, 'I am a file');
    const { api, logged } = await setup({ dataDir: notADir });
    expect(await call(api, 'GET', '/api/campaigns')).toMatchObject({
      status: 500,
      body: { message: 'The demo API failed unexpectedly.' },
    });
    expect(logged.errors).toHaveLength(1);
  });
});

describe('storage', () => {
  it('keeps everything across a restart', async () => {
    const first = await setup();
    const cookie = await signIn(first.api);
    await call(first.api, 'PATCH', '/api/profile', { cookie, body: { displayName: 'Restarted' } });

    const second = await setup({ dataDir: first.dataDir });
    expect((await call(second.api, 'GET', '/api/profile', { cookie })).body).toEqual({
      profile: { id: 'u1', email: 'demo@example.com', displayName: 'Restarted' },
    });
  });

  it.each([
    ['unparseable', '{"users": ['],
    ['wrong shape', JSON.stringify({ users: 'nope', campaigns: [], sessions: [] })],
  ])('moves a corrupt (%s) db.json aside and starts from the seed', async (_kind, contents) => {
    const dataDir = await tempDir();
    await writeFile(path.join(dataDir, 'db.json'), contents);
    const { api, logged } = await setup({ dataDir });

    expect(ids(await call(api, 'GET', '/api/campaigns'))).toEqual([1, 2, 3, 6, 4]);
    const files = await readdir(dataDir);
    const aside = files.filter((f) => /^db\.corrupt-.+\.json$/.test(f));
    expect(aside).toHaveLength(1);
    expect(await readFile(path.join(dataDir, aside[0] ?? ''), 'utf8')).toBe(contents);
    expect(describeProblem(await readFile(path.join(dataDir, 'db.json'), 'utf8'))).toBeUndefined();
    expect(logged.warnings).toHaveLength(1);
  });

  it('writes atomically, leaving no temp files behind', async () => {
    const { api, dataDir } = await setup();
    const cookie = await signIn(api);
    await call(api, 'PATCH', '/api/profile', { cookie, body: { displayName: 'Atomic' } });
    await call(api, 'DELETE', '/api/session', { cookie });
    expect(await readdir(dataDir)).toEqual(['db.json']);
  });

  it('serialises concurrent writes so none is lost and the file stays valid', async () => {
    const { api, dataDir } = await setup();
    const demo = await signIn(api);
    const sam = await signIn(api, 'sam@example.com', 'sam-password');
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        call(api, 'PATCH', '/api/profile', {
          cookie: i % 2 ? demo : sam,
          body: { displayName: `Name ${i}` },
        }),
      ),
      signIn(api),
    ]);
    for (const res of results.slice(0, 10)) expect((res as ApiResponse).status).toBe(200);

    const text = await readFile(path.join(dataDir, 'db.json'), 'utf8');
    expect(describeProblem(text)).toBeUndefined();
    const stored = JSON.parse(text);
    expect(stored.users.map((u: { displayName: string }) => u.displayName)).toEqual(['Name 9', 'Name 8']);
    expect(stored.sessions).toHaveLength(3);
    expect(await readdir(dataDir)).toEqual(['db.json']);
  });
});

describe('demoApi() Vite plugin', () => {
  it('serves real HTTP through the same middleware in dev and preview', async () => {
    const dataDir = await tempDir();
    const plugin = demoApi({ dataDir });
    const dev: Middleware[] = [];
    const preview: Middleware[] = [];
    const devHook = plugin.configureServer as (server: ViteDevServer) => void;
    const previewHook = plugin.configurePreviewServer as (server: PreviewServer) => void;
    devHook({ middlewares: { use: (m: Middleware) => dev.push(m) } } as unknown as ViteDevServer);
    previewHook({ middlewares: { use: (m: Middleware) => preview.push(m) } } as unknown as PreviewServer);
    expect(dev).toHaveLength(1);
    expect(preview).toEqual(dev);

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
      const signInRes = await fetch(`${base}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'sam@example.com', password: 'sam-password' }),
      });
      expect(signInRes.status).toBe(200);
      expect(signInRes.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(signInRes.headers.get('cache-control')).toBe('no-store');
      const cookie = signInRes.headers.getSetCookie()[0]?.split(';')[0] ?? '';
      expect(cookie).toMatch(/^sid=/);

      const session = await fetch(`${base}/api/session`, { headers: { cookie } });
      expect(await session.json()).toEqual({
        user: { id: 'u2', email: 'sam@example.com', displayName: 'Sam Rivera' },
      });

      const signOut = await fetch(`${base}/api/session`, { method: 'DELETE', headers: { cookie } });
      expect(signOut.status).toBe(204);
      expect(await signOut.text()).toBe('');

      const tooBig = await fetch(`${base}/api/profile`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ displayName: 'x'.repeat(70 * 1024) }),
      });
      expect(tooBig.status).toBe(413);
      expect(await tooBig.json()).toEqual({ message: 'The request body must be at most 64 KiB.' });

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
