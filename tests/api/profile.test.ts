// @vitest-environment node
// /api/profile (api/routes/profile.ts): reading the profile and saving the display name, on PGlite and (when
// TEST_DATABASE_URL is set) PostgreSQL.
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, backends, useApi } from '../support/apiHarness';

describe.each(backends())('the profile routes on %s', (kind) => {
  const { database, open } = useApi(kind);
  let api: ApiClient;
  beforeEach(async () => {
    api = await open();
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
});
