/**
 * What crawlers, link previews and installs read: robots.txt, sitemap.xml, the canonical link and
 * Open Graph tags of a prerendered page with its picture from the image endpoint, the web manifest and its
 * icons; and a missing file is a 404, while a page address with a dot still reaches the app's 404 view.
 * Absolute URLs need the origin the build was given (PUBLIC_ORIGIN; `npm test` builds with one): read here from
 * the build, so a local build without it is checked for what it then does instead.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIResponse } from '@playwright/test';
import { CAMPAIGNS, expect, expectPage, test } from './fixtures';

const BUILD = process.env.E2E_OUT_DIR ?? 'dist';
const { publicOrigin } = JSON.parse(readFileSync(path.join(BUILD, '.build-env.json'), 'utf8')) as {
  publicOrigin: string | null;
};
const maple = CAMPAIGNS.maple;

/** Width and height of a PNG (IHDR) or a JPEG (the first SOF segment). */
function imageSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.subarray(1, 4).toString('latin1') === 'PNG')
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes.readUInt16BE(at);
    if (marker >= 0xffc0 && marker <= 0xffc3)
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('not a PNG or JPEG');
}

/** The path and query of a URL the build made absolute for its origin, to ask this server for. */
function onThisServer(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function text(response: APIResponse): Promise<string> {
  return (await response.body()).toString('utf8');
}

test.describe('robots.txt and sitemap.xml', () => {
  test('robots.txt is a real file: the API and the signed-in pages are not for crawling', async ({
    request,
  }) => {
    const response = await request.get('/robots.txt');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^text\/plain/);
    const robots = await text(response);
    expect(robots).toMatch(/^User-agent: \*$/m);
    for (const path of ['/api/', '/home', '/profile']) expect(robots).toContain(`\nDisallow: ${path}\n`);
    if (publicOrigin) expect(robots).toContain(`\nSitemap: ${publicOrigin}/sitemap.xml\n`);
    else expect(robots).not.toContain('Sitemap:');
  });

  test('sitemap.xml lists every prerendered public page, and each one is served here', async ({
    request,
  }) => {
    const response = await request.get('/sitemap.xml');
    if (!publicOrigin) {
      // Its URLs must be absolute: a build without the site's origin writes none, and the path is a 404.
      expect(response.status()).toBe(404);
      return;
    }
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/xml/);
    const locs = [...(await text(response)).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (match) => match[1] as string,
    );
    expect(locs).toEqual(
      expect.arrayContaining([`${publicOrigin}/`, `${publicOrigin}/campaign/${maple.id}`]),
    );
    expect(locs).not.toContain(`${publicOrigin}/login`);
    // Drafts and other private campaigns are not prerendered, so not listed.
    expect(locs).not.toContain(`${publicOrigin}/campaign/${CAMPAIGNS.bikes.id}`);
    for (const loc of locs) {
      expect(loc.startsWith(`${publicOrigin}/`), loc).toBe(true);
      const page = await request.get(onThisServer(loc), { headers: { accept: 'text/html' } });
      expect(page.status(), loc).toBe(200);
    }
  });
});

test.describe('link previews', () => {
  test('a prerendered campaign names its canonical address and its picture, which the image endpoint serves', async ({
    page,
    request,
  }) => {
    await page.goto(`/campaign/${maple.id}`);
    const meta = (property: string) => page.locator(`meta[property="${property}"]`);
    await expect(meta('og:title')).toHaveAttribute('content', `${maple.title} | campaign-web`);
    await expect(meta('og:description')).toHaveAttribute('content', /raised beds/);
    await expect(meta('og:type')).toHaveAttribute('content', 'website');
    const canonical = page.locator('link[rel="canonical"]');
    await expect(canonical).toHaveCount(1);
    if (!publicOrigin) {
      // Without the site's origin: a relative canonical link, and nothing that must be absolute.
      await expect(canonical).toHaveAttribute('href', `/campaign/${maple.id}`);
      await expect(meta('og:image')).toHaveCount(0);
      await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary');
      return;
    }
    await expect(canonical).toHaveAttribute('href', `${publicOrigin}/campaign/${maple.id}`);
    await expect(meta('og:url')).toHaveAttribute('content', `${publicOrigin}/campaign/${maple.id}`);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    const image = (await meta('og:image').getAttribute('content')) ?? '';
    expect(image.startsWith(`${publicOrigin}/_ipx/`)).toBe(true);
    const picture = await request.get(onThisServer(image));
    expect(picture.status()).toBe(200);
    expect(picture.headers()['content-type']).toBe('image/jpeg');
    expect(imageSize(await picture.body())).toEqual({ width: 1200, height: 630 });
    await expect(meta('og:image:width')).toHaveAttribute('content', '1200');
    await expect(meta('og:image:height')).toHaveAttribute('content', '630');
  });

  test('the landing page has its own canonical address and a card without a picture', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${publicOrigin ?? ''}/`);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary');
  });
});

test('the web manifest names the app and its icons, each served at the size it says', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const response = await request.get(href ?? '');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = JSON.parse(await text(response)) as {
    name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({ name: 'campaign-web', start_url: '/', display: 'standalone' });
  expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type'], icon.src).toMatch(new RegExp(`^${icon.type.replace('+', '\\+')}`));
    if (icon.sizes !== 'any') {
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(imageSize(await file.body()), icon.src).toEqual({ width, height });
    }
  }
  const touch = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  expect(imageSize(await (await request.get(touch ?? '')).body())).toEqual({ width: 180, height: 180 });
});

test.describe('files that do not exist', () => {
  test('a missing file is a 404 to the browser, not the app', async ({ page }) => {
    for (const path of [
      '/favicon.ico',
      '/old-sitemap.xml',
      '/wp-login.php',
      `/campaign/${maple.id}/photo.jpg`,
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.locator('body'), path).toHaveText('Not found.');
    }
  });

  test('a page address with a dot in it still reaches the app, which shows its Page Not Found view', async ({
    page,
  }) => {
    const response = await page.goto('/campaign/1.5');
    expect(response?.status()).toBe(200);
    await expectPage(page, {
      url: '/campaign/1.5',
      heading: '404',
      title: '404 - Page Not Found | campaign-web',
    });
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('Page Not Found');
  });
});
