// @vitest-environment node
// /api/session (api/routes/session.ts): signing in with a hardened cookie, reading the session and signing out,
// on PGlite and (when TEST_DATABASE_URL is set) PostgreSQL. Sign-in's hardening is tests/api/accounts/.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, backends, useApi } from '../support/apiHarness';

describe.each(backends())('the session routes on %s', (kind) => {
  const { database, open } = useApi(kind);
  let api: ApiClient;
  beforeEach(async () => {
    api = await open();
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

    it('answers a sign-out whose session cannot be ended with an error, never a 204 that clears the cookie', async () => {
      const cookie = await api.signIn();
      const db = database().db;
      // Another table's row refers to the session: deleting it fails.
      await sql`create table pinned_sessions (key text references sessions (id_hash))`.execute(db);
      try {
        await sql`insert into pinned_sessions (key) select id_hash from sessions`.execute(db);
        const res = await api.request({ method: 'DELETE', url: '/api/session', cookie });
        expect(res.statusCode).toBe(500);
        expect(res.headers['set-cookie']).toBeUndefined();
      } finally {
        await sql`drop table pinned_sessions`.execute(db);
      }
    });

    it('ignores forged session ids', async () => {
      await api.signIn();
      for (const cookie of ['sid=forged', `sid=${'A'.repeat(43)}`, 'sid=', 'sid=%00']) {
        expect((await api.request({ url: '/api/session', cookie })).json(), cookie).toEqual({ user: null });
      }
    });
  });
});
