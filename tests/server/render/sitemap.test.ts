// @vitest-environment node
// /sitemap.xml from the database (server/render/sitemap.ts): every public page and public campaign, absolute; a
// sitemap index of files past the limit per file (50,000; lowered here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenDatabase } from '../../../api/database/open';
import { isSitemapName, SITEMAP_PAGES, sitemapFile } from '../../../server/render/sitemap';
import { openTestDatabase } from '../../support/apiHarness';

const ORIGIN = 'https://campaigns.example';
const locs = (xml: string | null) =>
  [...(xml ?? '').matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);

describe('the sitemap', () => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  it('lists the public pages and every public campaign, newest first; no draft, no sign-in form', async () => {
    expect(SITEMAP_PAGES).toEqual(['/', '/campaign/components/info']);
    const xml = await sitemapFile(database.db, ORIGIN, 'sitemap.xml');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset /);
    // 5 is a draft; 3 (completed) and 4 (paused) are public, though not live.
    expect(locs(xml)).toEqual([
      `${ORIGIN}/`,
      `${ORIGIN}/campaign/components/info`,
      ...[6, 4, 3, 2, 1].map((id) => `${ORIGIN}/campaign/${id}`),
    ]);
    expect(await sitemapFile(database.db, ORIGIN, 'sitemap-1.xml')).toBeNull();
  });

  it('is an index of files past the limit, which together list each URL once', async () => {
    const index = await sitemapFile(database.db, ORIGIN, 'sitemap.xml', 3);
    expect(index).toContain('<sitemapindex ');
    expect(locs(index)).toEqual([1, 2, 3].map((n) => `${ORIGIN}/sitemap-${n}.xml`));
    const all: (string | undefined)[] = [];
    for (const n of [1, 2, 3]) {
      const part = locs(await sitemapFile(database.db, ORIGIN, `sitemap-${n}.xml`, 3));
      expect(part.length).toBeLessThanOrEqual(3);
      all.push(...part);
    }
    expect(all).toEqual(locs(await sitemapFile(database.db, ORIGIN, 'sitemap.xml')));
    expect(await sitemapFile(database.db, ORIGIN, 'sitemap-4.xml', 3)).toBeNull();
  });

  it('names only its own files', () => {
    for (const name of ['sitemap.xml', 'sitemap-1.xml', 'sitemap-20.xml'])
      expect(isSitemapName(name)).toBe(true);
    for (const name of ['sitemap-0.xml', 'sitemap-x.xml', 'old-sitemap.xml', 'sitemap.xml.gz'])
      expect(isSitemapName(name), name).toBe(false);
  });
});
