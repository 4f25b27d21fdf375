/**
 * What a cached page shows, as tags, and which tags a write changes. A page is tagged with every campaign it
 * shows (`campaign:{id}`) and, when it is a list of campaigns (the landing page and its later pages, the
 * sitemap), with `list`. A notification (migration 0009: `{"campaign":3,"list":true}`) drops the pages tagged
 * with that campaign, and every list when the set of listed campaigns may have changed (a campaign added,
 * removed, or its status changed: every later page shifts).
 */
import type { PagePayload } from '../../core/payload.ts';

export const LIST_TAG = 'list';

export function campaignTag(id: number | string): string {
  return `campaign:${id}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tags of a rendered page, from its path and the data it was rendered with. */
export function tagsOfPage(path: string, payload: PagePayload): string[] {
  const tags = new Set<string>();
  const campaign = /^\/campaign\/(\d+)$/.exec(path.split('?')[0] ?? '');
  if (campaign?.[1]) tags.add(campaignTag(Number(campaign[1])));
  const data = payload.data;
  if (isRecord(data)) {
    if (typeof data.id === 'number') tags.add(campaignTag(data.id));
    if (Array.isArray(data.campaigns)) {
      tags.add(LIST_TAG);
      for (const item of data.campaigns)
        if (isRecord(item) && typeof item.id === 'number') tags.add(campaignTag(item.id));
    }
  }
  return [...tags];
}

/** A notification's payload as the tags it drops; `null` when it is not one the trigger sends. */
export function tagsOfNotification(text: string): string[] | null {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(message) || typeof message.campaign !== 'number') return null;
  return message.list === true ? [campaignTag(message.campaign), LIST_TAG] : [campaignTag(message.campaign)];
}
