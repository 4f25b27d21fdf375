// @vitest-environment node
// The demo API's behaviour, route by route, on PGlite and (when TEST_DATABASE_URL is set) PostgreSQL.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiApp } from '../../api/app';
import { testApiConfig } from '../../api/config';
import {
  type ApiClient,
  apiClient,
  backends,
  ids,
  openTestDatabase,
  resetDatabase,
  useTestDatabase,
} from '../support/apiHarness';

describe('createApiApp', () => {
  // (That it closes a database it opened itself is left to the processes' tests: opening a second embedded
  // database here would cost seconds for every mutant of the API's start-up.)
  it('leaves a database it was given open when the app closes', async () => {
    const given = await openTestDatabase('pglite');
    try {
      const close = vi.fn(async () => {});
      const { app } = await createApiApp({ config: testApiConfig(), database: { ...given, close } });
      await app.close();
      expect(close).not.toHaveBeenCalled();
    } finally {
      await given.close();
    }
  }, 60_000);

  it('fails to start, rather than serve half an app, when a route cannot be set up', async () => {
    const database = await openTestDatabase('pglite');
    try {
      await expect(
        createApiApp({ config: testApiConfig({ bodyLimitBytes: -1 }), database }),
      ).rejects.toThrow();
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe.each(backends())('demo API on %s', (kind) => {
  const database = useTestDatabase(kind);
  let api: ApiClient;

  beforeEach(async () => {
    await resetDatabase(database());
    api = await apiClient(database());
  });
  afterEach(async () => {
    await api.close();
  });

  describe('POST /api/session', () => {
    it('signs in and sets a hardened session cookie', async () => {
      const res = await api.request({
        method: 'POST',
        url: '/api/session',
        payload: { email: '  Demo@Example.COM ', password: 'demo-password' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ user: { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' } });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43}; /);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).toContain('Path=/');
      expect(cookie).toContain(`Max-Age=${12 * 60 * 60}`);
      expect(cookie).not.toContain('Secure');
    });

    it('rejects a wrong password or unknown email with the same exact message', async () => {
      for (const payload of [
        { email: 'demo@example.com', password: 'nope' },
        { email: 'nobody@example.com', password: 'demo-password' },
        { email: 'sam@example.com', password: 'demo-password' },
      ]) {
        const res = await api.request({ method: 'POST', url: '/api/session', payload });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Incorrect email or password' });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });
  });

  describe('GET and DELETE /api/session', () => {
    it('reads the signed-in user, then deletes the session idempotently', async () => {
      expect((await api.request({ url: '/api/session' })).json()).toEqual({ user: null });
      const cookie = await api.signIn();
      const signedIn = await api.request({ url: '/api/session', cookie: `theme=dark; ${cookie}` });
      expect(signedIn.json()).toEqual({
        user: { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' },
      });

      for (let i = 0; i < 2; i++) {
        const res = await api.request({ method: 'DELETE', url: '/api/session', cookie });
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
        expect(String(res.headers['set-cookie'])).toMatch(/^sid=; Max-Age=0/);
      }
      expect((await api.request({ url: '/api/session', cookie })).json()).toEqual({ user: null });
      expect(await database().db.selectFrom('sessions').selectAll().execute()).toEqual([]);
      expect((await api.request({ method: 'DELETE', url: '/api/session' })).statusCode).toBe(204);
    });

    it('ignores forged session ids', async () => {
      await api.signIn();
      for (const cookie of ['sid=forged', `sid=${'A'.repeat(43)}`, 'sid=', 'sid=%00']) {
        expect((await api.request({ url: '/api/session', cookie })).json(), cookie).toEqual({ user: null });
      }
    });
  });

  describe('GET /api/campaigns', () => {
    it('lists public campaigns, featured first then by id', async () => {
      const res = await api.request({ url: '/api/campaigns' });
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual([1, 2, 3, 6, 4]);
      const { campaigns } = res.json() as { campaigns: Record<string, unknown>[] };
      expect(Object.keys(campaigns[0] ?? {}).sort()).toEqual(
        ['featured', 'goal', 'id', 'image', 'raised', 'status', 'summary', 'title'].sort(),
      );
      expect(campaigns[0]?.image).toBe('/campaigns/campaign-1.jpg');
    });

    it('filters with ?featured=1 and ignores other parameters', async () => {
      expect(ids(await api.request({ url: '/api/campaigns?featured=1' }))).toEqual([1, 2, 3, 6]);
      expect(ids(await api.request({ url: '/api/campaigns?featured=true&_=123' }))).toEqual([1, 2, 3, 6]);
      expect(ids(await api.request({ url: '/api/campaigns?featured=0' }))).toEqual([1, 2, 3, 6, 4]);
    });

    it('gives a campaign without a picture a null image', async () => {
      await database().db.updateTable('campaigns').set({ image: null }).where('id', '=', 1).execute();
      expect((await api.request({ url: '/api/campaigns/1' })).json().campaign.image).toBeNull();
    });
  });

  describe('GET /api/campaigns/:id', () => {
    it('returns the campaign with its owner name and calendar dates', async () => {
      const res = await api.request({ url: '/api/campaigns/2' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        campaign: { id: 2, ownerId: 'u2', ownerName: 'Sam Rivera', status: 'active', featured: true },
      });
      const { campaign } = res.json();
      expect(typeof campaign.description).toBe('string');
      expect(campaign.startsOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(campaign.endsOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });

    it('answers 404 for unknown ids and for drafts seen by anyone but their owner', async () => {
      const missing = await api.request({ url: '/api/campaigns/999' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'Campaign 999 does not exist.' });
      expect((await api.request({ url: '/api/campaigns/5' })).statusCode).toBe(404);
      const sam = await api.signIn('sam@example.com', 'sam-password');
      expect((await api.request({ url: '/api/campaigns/5', cookie: sam })).statusCode).toBe(404);
      const demo = await api.signIn();
      expect((await api.request({ url: '/api/campaigns/5', cookie: demo })).statusCode).toBe(200);
      // Past the id column's range: does not exist (not a database error).
      expect((await api.request({ url: '/api/campaigns/9999999999999999' })).statusCode).toBe(404);
    });
  });

  describe('GET /api/me/campaigns', () => {
    it('needs a session', async () => {
      const res = await api.request({ url: '/api/me/campaigns' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'You need to sign in first.' });
    });

    it("lists the signed-in user's campaigns, drafts included", async () => {
      expect(ids(await api.request({ url: '/api/me/campaigns', cookie: await api.signIn() }))).toEqual([
        1, 3, 5, 6,
      ]);
      const sam = await api.signIn('sam@example.com', 'sam-password');
      expect(ids(await api.request({ url: '/api/me/campaigns', cookie: sam }))).toEqual([2, 4]);
    });
  });

  describe('/api/profile', () => {
    it('reads the profile and needs a session', async () => {
      expect((await api.request({ url: '/api/profile' })).statusCode).toBe(401);
      const patch = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        payload: { displayName: 'X' },
      });
      expect(patch.statusCode).toBe(401);
      const res = await api.request({ url: '/api/profile', cookie: await api.signIn() });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        profile: { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' },
      });
    });

    it('updates the trimmed display name and stores it', async () => {
      const cookie = await api.signIn();
      const res = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        cookie,
        payload: { displayName: '  Dee Moe 🌱 ' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        profile: { id: 'u1', email: 'demo@example.com', displayName: 'Dee Moe 🌱' },
      });
      expect((await api.request({ url: '/api/session', cookie })).json().user.displayName).toBe('Dee Moe 🌱');
      const row = await database()
        .db.selectFrom('users')
        .select('displayName')
        .where('id', '=', 'u1')
        .executeTakeFirst();
      expect(row?.displayName).toBe('Dee Moe 🌱');
    });

    it('takes a one-character display name', async () => {
      const cookie = await api.signIn();
      const res = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        cookie,
        payload: { displayName: ' X ' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().profile.displayName).toBe('X');
    });

    it('refuses a write from a session that has ended', async () => {
      const cookie = await api.signIn();
      await api.request({ method: 'DELETE', url: '/api/session', cookie });
      const res = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        cookie,
        payload: { displayName: 'Late' },
      });
      expect(res.statusCode).toBe(401);
      const row = await database()
        .db.selectFrom('users')
        .select('displayName')
        .where('id', '=', 'u1')
        .executeTakeFirst();
      expect(row?.displayName).toBe('Demo User');
    });

    it('loses no write when many arrive at once', async () => {
      const demo = await api.signIn();
      const sam = await api.signIn('sam@example.com', 'sam-password');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.request({
            method: 'PATCH',
            url: '/api/profile',
            cookie: i % 2 ? demo : sam,
            payload: { displayName: `Name ${i}` },
          }),
        ),
      );
      expect(results.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
      const names = await database()
        .db.selectFrom('users')
        .select(['id', 'displayName'])
        .orderBy('id')
        .execute();
      // Each user's last write is one of theirs; both rows are intact.
      expect(names[0]?.displayName).toMatch(/^Name [13579]$/);
      expect(names[1]?.displayName).toMatch(/^Name [02468]$/);
    });
  });

  describe('routing and errors', () => {
    it('answers 404 for unknown paths and 405 with Allow for wrong methods', async () => {
      const missing = await api.request({ url: '/api/nope?x=1' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'No API route for GET /api/nope.' });
      const res = await api.request({ method: 'PUT', url: '/api/session' });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('GET, POST, DELETE');
      expect(res.json()).toEqual({ message: 'PUT is not allowed on /api/session; use GET, POST, DELETE.' });
      expect((await api.request({ method: 'DELETE', url: '/api/campaigns' })).headers.allow).toBe('GET');
      const withQuery = await api.request({ method: 'PUT', url: '/api/session?x=1' });
      expect(withQuery.json()).toEqual({
        message: 'PUT is not allowed on /api/session; use GET, POST, DELETE.',
      });
    });

    it('answers every path under /api with JSON, echoing at most 200 characters of it', async () => {
      for (const url of ['/api', '/api/']) {
        const res = await api.request({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toEqual({ message: `No API route for GET ${url}.` });
      }
      const path200 = `/api/${'x'.repeat(195)}`;
      expect((await api.request({ url: path200 })).json()).toEqual({
        message: `No API route for GET ${path200}.`,
      });
      const long = await api.request({ url: `${path200}yz?q=1` });
      expect(long.json()).toEqual({ message: `No API route for GET ${path200}….` });
    });

    it('answers 414 for a URL over 2048 characters', async () => {
      const at = `/api/nope/${'x'.repeat(2038)}`;
      expect(at).toHaveLength(2048);
      expect((await api.request({ url: at })).statusCode).toBe(404);
      const over = await api.request({ url: `${at}x` });
      expect(over.statusCode).toBe(414);
      expect(over.json()).toEqual({ message: 'The URL is too long (at most 2048 characters).' });
    });

    it('waits DEMO_API_DELAY_MS before every answer', async () => {
      const slow = await apiClient(database(), { config: { delayMs: 80 } });
      try {
        const started = performance.now();
        expect((await slow.request({ url: '/api/session' })).statusCode).toBe(200);
        expect(performance.now() - started).toBeGreaterThanOrEqual(75);
      } finally {
        await slow.close();
      }
    });

    it('logs a failed start-up pruning and serves all the same', async () => {
      const errors: unknown[][] = [];
      await database().db.schema.alterTable('sessions').renameTo('sessions_gone').execute();
      const started = await apiClient(database(), {
        log: { error: (...args: unknown[]) => errors.push(args) },
      }).finally(() => database().db.schema.alterTable('sessions_gone').renameTo('sessions').execute());
      expect(errors.map((args) => args[0])).toEqual(['[demo-api] pruning sessions and reports failed:']);
      try {
        expect((await started.request({ url: '/api/campaigns' })).statusCode).toBe(200);
      } finally {
        await started.close();
      }
    });

    it('turns unexpected failures into a logged 500 with the same body shape', async () => {
      const errors: unknown[][] = [];
      const broken = await apiClient(database(), {
        log: { error: (...args: unknown[]) => errors.push(args) },
      });
      await database().db.schema.alterTable('campaigns').renameTo('campaigns_gone').execute();
      try {
        const res = await broken.request({ url: '/api/campaigns' });
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ message: 'The demo API failed unexpectedly.' });
        expect(errors).toHaveLength(1);
        expect(errors[0]?.[0]).toBe('[demo-api] GET /api/campaigns failed:');
      } finally {
        await database().db.schema.alterTable('campaigns_gone').renameTo('campaigns').execute();
        await broken.close();
      }
    });
  });
});
