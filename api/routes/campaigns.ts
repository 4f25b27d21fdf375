/**
 * `/api/campaigns`, `/api/campaigns/:id` and `/api/me/campaigns`: the public list (drafts left out), one campaign
 * (a draft only to its owner), and the signed-in user's own, drafts included.
 */
import { listCampaigns, parseCursor, SUMMARY_COLUMNS } from '../campaignList.ts';
import { HttpError } from '../errors.ts';
import * as schemas from '../schemas.ts';
import type { Campaign, CampaignSummary } from '../types.ts';
import { type RoutePlugin, sessionCookie } from './context.ts';

export const campaignRoutes: RoutePlugin = async (app, { db, accounts, config }) => {
  const cookie = sessionCookie(accounts, config.secureCookie);

  app.get(
    '/campaigns',
    { schema: { querystring: schemas.campaignListQuery, response: schemas.campaignListResponse } },
    async (request) => {
      const featured = ['1', 'true'].includes(request.query.featured ?? '');
      const raw = request.query.after;
      const after = raw === undefined ? undefined : parseCursor(raw);
      if (raw !== undefined && after === undefined)
        throw new HttpError(400, 'The cursor `after` is not one this list gave out.');
      const page = await listCampaigns(db, { after, featured });
      return { campaigns: page.campaigns.map(campaignSummary), next: page.next };
    },
  );

  app.get(
    '/campaigns/:id',
    {
      schema: { params: schemas.campaignParams, response: schemas.campaignResponse },
      config: { messages: { id: { '*': 'Campaign id must be a positive whole number.' } } },
    },
    async (request) => {
      const raw = request.params.id;
      const id = Number(raw);
      // Past the integer column's range nothing can exist.
      const row =
        id <= 2_147_483_647
          ? await db
              .selectFrom('campaigns')
              // Every campaign has an owner: owner_id is a required reference to users.
              .innerJoin('users', 'users.id', 'campaigns.ownerId')
              .select(SUMMARY_COLUMNS.map((column) => `campaigns.${column}` as const))
              .select(['description', 'ownerId', 'startsOn', 'endsOn', 'users.displayName as ownerName'])
              .where('campaigns.id', '=', id)
              .executeTakeFirst()
          : undefined;
      // Drafts are private: to anyone but their owner they do not exist.
      const visible =
        row &&
        (row.status !== 'draft' || (await accounts.sessions.user(cookie.read(request)))?.id === row.ownerId);
      if (!row || !visible) throw new HttpError(404, `Campaign ${raw} does not exist.`);
      const campaign: Campaign = {
        ...campaignSummary(row),
        description: row.description,
        ownerId: row.ownerId,
        ownerName: row.ownerName,
        startsOn: row.startsOn,
        endsOn: row.endsOn,
      };
      return { campaign };
    },
  );

  app.get('/me/campaigns', { schema: { response: schemas.campaignListResponse } }, async (request) => {
    const user = await cookie.requireUser(request);
    const rows = await db
      .selectFrom('campaigns')
      .select(SUMMARY_COLUMNS)
      .where('ownerId', '=', user.id)
      .orderBy('id')
      .execute();
    return { campaigns: rows.map(campaignSummary) };
  });
};

function campaignSummary(row: CampaignSummary): CampaignSummary {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    status: row.status,
    goal: row.goal,
    raised: row.raised,
    featured: row.featured,
    image: row.image,
  };
}
