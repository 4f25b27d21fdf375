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
});
