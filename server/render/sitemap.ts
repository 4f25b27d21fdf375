/**
 * `/sitemap.xml`, from the database: the public pages worth a search result and every public campaign. Past
 * 50,000 URLs (the sitemap protocol's limit per file) it is a sitemap index of `/sitemap-{n}.xml` files of up to
 * 50,000 each. Absolute URLs need the site's origin (PUBLIC_ORIGIN): without it there is no sitemap. Cached
 * like a page, tagged `list`, so a campaign published, cancelled or removed drops it.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { countPublic, publicIds } from '../../api/campaignList.ts';
import type { Database } from '../../api/database/schema.ts';
import { renderedPaths, routeRules } from '../../core/routeRules.ts';
import type { CachedPage } from './cache.ts';
import { LIST_TAG } from './tags.ts';

/** The sitemap protocol's limit of URLs per file. */
export const SITEMAP_LIMIT = 50_000;

/** Public pages that are no search result: the sign-in form (crawlable, only not offered). */
const NOT_IN_SITEMAP = new Set(['/login']);

/** The pages without data the sitemap lists first. */
export const SITEMAP_PAGES: readonly string[] = renderedPaths(routeRules).filter(
  (path) => !path.endsWith('/**') && !NOT_IN_SITEMAP.has(path),
);

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char,
  );
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

function urlset(origin: string, paths: readonly string[]): string {
  const urls = paths.map((path) => `<url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`);
  return `${XML_HEAD}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** The `n`th file's paths (1-based) of the whole sequence: the pages first, then the campaigns newest first. */
async function pathsOfFile(db: Kysely<Database>, n: number, limit: number): Promise<string[]> {
  const start = (n - 1) * limit;
  const pages = SITEMAP_PAGES.slice(start, start + limit);
  const campaignStart = Math.max(0, start - SITEMAP_PAGES.length);
  const wanted = limit - pages.length;
  const ids = await publicIds(db, { offset: campaignStart, limit: wanted });
  return [...pages, ...ids.map((id) => `/campaign/${id}`)];
}

/**
 * The sitemap file `name` (`sitemap.xml`, or `sitemap-{n}.xml` past the limit), or `null` when there is no such
 * file (no origin, or a number past the last).
 */
export async function sitemapFile(
  db: Kysely<Database>,
  origin: string,
  name: string,
  limit = SITEMAP_LIMIT,
): Promise<string | null> {
  const total = SITEMAP_PAGES.length + (await countPublic(db));
  const files = Math.max(1, Math.ceil(total / limit));
  if (name === 'sitemap.xml') {
    if (files === 1) return urlset(origin, await pathsOfFile(db, 1, limit));
    const entries = Array.from(
      { length: files },
      (_, index) => `<sitemap><loc>${escapeXml(`${origin}/sitemap-${index + 1}.xml`)}</loc></sitemap>`,
    );
    return `${XML_HEAD}\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
  }
  const n = Number(/^sitemap-([1-9]\d{0,5})\.xml$/.exec(name)?.[1] ?? Number.NaN);
  if (!Number.isInteger(n) || files === 1 || n > files) return null;
  return urlset(origin, await pathsOfFile(db, n, limit));
}

/** Whether `relative` (no leading slash) names a sitemap file. */
export function isSitemapName(relative: string): boolean {
  return relative === 'sitemap.xml' || /^sitemap-[1-9]\d{0,5}\.xml$/.test(relative);
}

/** A sitemap file as a cache entry. */
export function sitemapEntry(key: string, xml: string, renderedAt: number): CachedPage {
  const body = Buffer.from(xml);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const variant = { body, etag, contentType: 'application/xml; charset=utf-8', headers: {} };
  return { key, variants: { document: variant, payload: variant }, tags: [LIST_TAG], renderedAt };
}
