// @vitest-environment node
// The campaign routes (api/routes/campaigns.ts): the public list and its filter, one campaign (drafts only to
// their owner), and the signed-in user's own, on PGlite and (when TEST_DATABASE_URL is set) PostgreSQL.
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, backends, ids, useApi } from '../support/apiHarness';

describe.each(backends())('the campaign routes on %s', (kind) => {
  const { database, open } = useApi(kind);
  let api: ApiClient;
  beforeEach(async () => {
    api = await open();
  });

  describe('GET /api/campaigns', () => {
    it('lists the live campaigns newest first, with no next page when they fit on one', async () => {
      const res = await api.request({ url: '/api/campaigns' });
      expect(res.statusCode).toBe(200);
      // 1, 2 and 6 are live; 3 is completed, 4 paused and 5 a draft.
      expect(ids(res)).toEqual([6, 2, 1]);
      const { campaigns, next } = res.json() as { campaigns: Record<string, unknown>[]; next: unknown };
      expect(next).toBeNull();
      expect(Object.keys(campaigns[0] ?? {}).sort()).toEqual(
        ['featured', 'goal', 'id', 'image', 'raised', 'status', 'summary', 'title'].sort(),
      );
      expect(campaigns[2]?.image).toBe('/campaigns/campaign-1.jpg');
    });

    it('filters with ?featured=1 and ignores other parameters', async () => {
      await database().db.updateTable('campaigns').set({ featured: false }).where('id', '=', 2).execute();
      expect(ids(await api.request({ url: '/api/campaigns?featured=1' }))).toEqual([6, 1]);
      expect(ids(await api.request({ url: '/api/campaigns?featured=true&_=123' }))).toEqual([6, 1]);
      expect(ids(await api.request({ url: '/api/campaigns?featured=0' }))).toEqual([6, 2, 1]);
    });

    it('pages 12 at a time by the cursor it gives, to the last page, each campaign once', async () => {
      const rows = Array.from({ length: 25 }, (_, index) => ({
        id: 100 + index,
        title: `Campaign ${index}`,
        summary: 's',
        description: 'd',
        status: 'active' as const,
        goal: 10,
        raised: 0,
        ownerId: 'u1',
        featured: false,
        image: null,
        startsOn: '2025-01-01',
        endsOn: '2025-12-31',
      }));
      await database().db.insertInto('campaigns').values(rows).execute();
      const seen: number[] = [];
      let url = '/api/campaigns';
      const pages: number[] = [];
      for (;;) {
        const res = await api.request({ url });
        expect(res.statusCode).toBe(200);
        const body = res.json() as { next: string | null };
        seen.push(...ids(res));
        pages.push(ids(res).length);
        if (body.next === null) break;
        expect(body.next).toMatch(/^c[0-9a-z]+$/);
        url = `/api/campaigns?after=${body.next}`;
      }
      expect(pages).toEqual([12, 12, 4]);
      expect(seen).toEqual([...rows.map((row) => row.id).reverse(), 6, 2, 1]);
    });

    it('refuses a cursor it never gave, saying so', async () => {
      for (const after of ['x', 'c', 'c-1', '12', 'czzzzzzzzzz']) {
        const res = await api.request({ url: `/api/campaigns?after=${after}` });
        expect(res.statusCode, after).toBe(400);
        expect(res.json()).toEqual({ message: 'The cursor `after` is not one this list gave out.' });
      }
    });

    it('reads any page with one range of an index, never a sort of the table', async () => {
      const { sql } = await import('kysely');
      const plan = await sql<{ 'QUERY PLAN': string }>`explain select id from campaigns
        where status = 'active' and id < 1000 order by id desc limit 13`.execute(database().db);
      const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index (Only )?Scan using campaigns_status_id/);
      expect(text).not.toMatch(/Sort/);
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
});
