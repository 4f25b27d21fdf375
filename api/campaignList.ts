/**
 * The public list of campaigns, a page at a time: newest first (by id, which only grows), with an opaque keyset
 * cursor, so that page 800 costs what page 1 costs (one range read of the `campaigns_status_id` index, migration
 * 0009). The landing page (`/?after=…`), `GET /api/campaigns?after=…` and the sitemap read it.
 */
import type { Kysely } from 'kysely';
import type { Database } from './database/schema.ts';
import type { CampaignStatus, CampaignSummary } from './types.ts';

/** The statuses of the campaigns the landing page and the sitemap list: the live ones. */
export const LISTED_STATUSES: readonly CampaignStatus[] = ['active'];

/** The statuses of the campaigns that are public: shown at their own address, listed in the sitemap. */
export const PUBLIC_STATUSES: readonly CampaignStatus[] = ['active', 'paused', 'completed'];

/** Campaigns on one page of the list. */
export const PAGE_SIZE = 12;

export const SUMMARY_COLUMNS = [
  'id',
  'title',
  'summary',
  'status',
  'goal',
  'raised',
  'featured',
  'image',
] as const;

/** The cursor of the page after the one ending with campaign `id`: its id, base-36, so it reads as a token. */
export function cursorAfter(id: number): string {
  return `c${id.toString(36)}`;
}

/** The id a cursor stands for, or `undefined` when it is no cursor this module wrote. */
export function parseCursor(cursor: string): number | undefined {
  if (!/^c[0-9a-z]{1,7}$/.test(cursor)) return undefined;
  const id = Number.parseInt(cursor.slice(1), 36);
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : undefined;
}

export interface CampaignPage {
  readonly campaigns: CampaignSummary[];
  /** The cursor of the next page, `null` on the last. */
  readonly next: string | null;
}

/**
 * One page of listed campaigns after `after` (a cursor; none: the first page). Reads one row more than it
 * shows to know whether a next page exists. With several listed statuses each one's range is read in order
 * and merged (a status per index range), so the cost stays that of one page either way.
 */
export async function listCampaigns(
  db: Kysely<Database>,
  { after, featured = false, limit = PAGE_SIZE }: { after?: number; featured?: boolean; limit?: number } = {},
): Promise<CampaignPage> {
  const ranges = await Promise.all(
    LISTED_STATUSES.map((status) => {
      let query = db.selectFrom('campaigns').select(SUMMARY_COLUMNS).where('status', '=', status);
      if (after !== undefined) query = query.where('id', '<', after);
      if (featured) query = query.where('featured', '=', true);
      return query
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
    }),
  );
  const rows = ranges
    .flat()
    .sort((a, b) => b.id - a.id)
    .slice(0, limit + 1);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { campaigns: shown, next: rows.length > limit && last ? cursorAfter(last.id) : null };
}

/** The ids of every public campaign, newest first, `limit` from `offset` on (a sitemap file). */
export async function publicIds(
  db: Kysely<Database>,
  { offset, limit }: { offset: number; limit: number },
): Promise<number[]> {
  const rows = await db
    .selectFrom('campaigns')
    .select('id')
    .where('status', 'in', [...PUBLIC_STATUSES])
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((row) => row.id);
}

/** How many campaigns are public (the sitemap index's size). */
export async function countPublic(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('campaigns')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('status', 'in', [...PUBLIC_STATUSES])
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
