/**
 * Images through the same-origin optimiser: the URLs the page asks for, 1x and 2x candidates, webp that
 * decodes, a reserved box (CLS 0) and a placeholder when the optimiser answers an error.
 */
import type { Locator, Page, Response } from '@playwright/test';
import { CAMPAIGNS, expect, mainHeading, openPage, test } from './fixtures';

const HERO_1X = '/_ipx/f_webp&fit_cover&s_1104x368/campaigns/campaign-1.jpg';
const HERO_2X = '/_ipx/f_webp&fit_cover&s_2048x683/campaigns/campaign-1.jpg';

function hero(page: Page): Locator {
  return page.getByRole('main').locator('img').first();
}

function isImage(name: string) {
  return (response: Response) => response.url().includes('/_ipx/') && response.url().includes(name);
}

async function expectWebp(response: Response): Promise<void> {
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/webp');
  expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const body = await response.body();
  expect(body.subarray(0, 4).toString('ascii')).toBe('RIFF');
  expect(body.subarray(8, 12).toString('ascii')).toBe('WEBP');
}

/** Decodes the image in the page; resolves with what the browser chose and got. */
function decode(image: Locator) {
  return image.evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    return {
      currentSrc: new URL(img.currentSrc).pathname,
      width: img.naturalWidth,
      height: img.naturalHeight,
    };
  });
}

/** Sums layout shifts from the very start of the document, as the CLS metric does. */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    w.__cls = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        w.__cls += entry.value;
        for (const source of entry.sources ?? [])
          w.__shifts.push(String((source.node as Element)?.outerHTML?.slice(0, 80)));
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

function layoutShifts(page: Page): Promise<{ cls: number; shifts: string[] }> {
  return page.evaluate(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    return { cls: w.__cls, shifts: w.__shifts };
  });
}

test('the campaign hero asks the optimiser for its 1x URL, offers 2x, and decodes as webp', async ({
  page,
}) => {
  const answered = page.waitForResponse(isImage('campaign-1.jpg'));
  // The prerendered HTML has the hero in it, so the load event waits for it: wait for the document only.
  await page.goto(`/campaign/${CAMPAIGNS.maple.id}`, { waitUntil: 'domcontentloaded' });
  await expect(mainHeading(page)).toHaveText(CAMPAIGNS.maple.title);
  const image = hero(page);
  await expect(image).toHaveAttribute('src', HERO_1X);
  await expect(image).toHaveAttribute('srcset', `${HERO_1X} 1x, ${HERO_2X} 2x`);
  await expect(image).toHaveAttribute('width', '1104');
  await expect(image).toHaveAttribute('height', '368');
  await expect(image).toHaveAttribute('loading', 'eager');
  await expect(image).toHaveAttribute('fetchpriority', 'high');
  await expect(image).toHaveAttribute('alt', '');

  const response = await answered;
  expect(new URL(response.url()).pathname + new URL(response.url()).search).toBe(HERO_1X);
  await expectWebp(response);
  expect(await decode(image)).toEqual({ currentSrc: HERO_1X, width: 1104, height: 368 });
});

test.describe('on a high-density screen', () => {
  test.use({ deviceScaleFactor: 2 });

  test('the hero takes its 2x candidate', async ({ page }) => {
    const answered = page.waitForResponse(isImage('campaign-1.jpg'));
    await openPage(page, `/campaign/${CAMPAIGNS.maple.id}`, CAMPAIGNS.maple.title);
    const response = await answered;
    expect(new URL(response.url()).pathname).toBe(HERO_2X);
    await expectWebp(response);
    // The optimiser never enlarges: 1200x400 pixels (the 1200x800 source cropped to the hero's shape), which
    // a 2x candidate reports as 600x200 CSS pixels.
    expect(await decode(hero(page))).toEqual({ currentSrc: HERO_2X, width: 600, height: 200 });
  });
});

test('the first campaign card loads its thumbnail at once (the largest paint on a phone), the others lazily, each with 1x and 2x candidates', async ({
  page,
}) => {
  const thumbnails = ['campaign-1.jpg', 'campaign-2.jpg', 'campaign-3.jpg', 'campaign-6.jpg'];
  const answers = thumbnails.map((name) => page.waitForResponse(isImage(name)));
  await openPage(page, '/', /Campaigns that move/);
  const cards = page.getByRole('main').locator('article img');
  await expect(cards).toHaveCount(4);
  for (const [index, name] of thumbnails.entries()) {
    const card = cards.nth(index);
    const oneX = `/_ipx/f_webp&fit_cover&s_480x270/campaigns/${name}`;
    await expect(card).toHaveAttribute('src', oneX);
    await expect(card).toHaveAttribute(
      'srcset',
      `${oneX} 1x, /_ipx/f_webp&fit_cover&s_960x540/campaigns/${name} 2x`,
    );
    await expect(card).toHaveAttribute('loading', index === 0 ? 'eager' : 'lazy');
    if (index === 0) await expect(card).toHaveAttribute('fetchpriority', 'high');
    else await expect(card).not.toHaveAttribute('fetchpriority', /./);
    await expect(card).toHaveAttribute('width', '480');
    await expect(card).toHaveAttribute('height', '270');
    await card.scrollIntoViewIfNeeded();
  }
  for (const answer of answers) await expectWebp(await answer);
  expect(await decode(cards.last())).toMatchObject({ width: 480, height: 270 });
});

test('the campaign page does not shift while its images arrive (CLS 0)', async ({ page }) => {
  await recordLayoutShifts(page);
  // Hold the hero back, to see its box reserved before a single byte of it has arrived.
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/_ipx/**', async (route) => {
    await released;
    await route.continue();
  });
  // The prerendered HTML has the hero in it, so the load event waits for it: wait for the document only.
  await page.goto(`/campaign/${CAMPAIGNS.maple.id}`, { waitUntil: 'domcontentloaded' });
  await expect(mainHeading(page)).toHaveText(CAMPAIGNS.maple.title);
  const image = hero(page);
  const before = await image.boundingBox();
  expect(before?.width).toBeGreaterThan(0);
  expect(before?.height).toBeCloseTo(((before?.width ?? 0) * 368) / 1104, 0);
  expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(false);

  release();
  await decode(image);
  expect(await image.boundingBox()).toEqual(before);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  expect(await layoutShifts(page)).toEqual({ cls: 0, shifts: [] });
});

test('an optimiser error shows a placeholder in the same box', async ({ page }) => {
  await page.route('**/_ipx/**/campaign-1.jpg', (route) =>
    route.fulfill({ status: 404, json: { message: 'No source image at campaigns/campaign-1.jpg.' } }),
  );
  await recordLayoutShifts(page);
  await openPage(page, `/campaign/${CAMPAIGNS.maple.id}`, CAMPAIGNS.maple.title);
  const placeholder = page.getByRole('main').locator('[data-state="placeholder"]');
  await expect(placeholder).toBeVisible();
  await expect(hero(page)).toHaveCount(0);
  const box = await placeholder.boundingBox();
  expect(box?.height).toBeCloseTo(((box?.width ?? 0) * 368) / 1104, 0);
  await expect(placeholder.locator('[data-icon="lucide:image-off"]')).toHaveAttribute('data-state', 'loaded');
  expect((await layoutShifts(page)).cls).toBe(0);
});

test('the gallery’s missing source gets a 404 and a placeholder as large as the image beside it', async ({
  page,
}) => {
  const missing = page.waitForResponse(isImage('no-such-image.jpg'));
  await openPage(page, '/campaign/components/info', 'Component gallery');
  const images = page.getByRole('region', { name: 'Images' });
  await images.scrollIntoViewIfNeeded();
  expect((await missing).status()).toBe(404);
  const placeholder = images.getByRole('img', { name: 'A source that does not exist' });
  await expect(placeholder).toHaveAttribute('data-state', 'placeholder');
  const river = images.getByRole('img', { name: 'A river between green hills' });
  await decode(river);
  expect(await placeholder.boundingBox()).toMatchObject({
    width: (await river.boundingBox())?.width,
    height: (await river.boundingBox())?.height,
  });
});

test('the optimiser refuses bad modifiers and paths and answers 404 for a missing source', async ({
  page,
}) => {
  const bad = await page.request.get('/_ipx/blur_3/campaigns/campaign-1.jpg');
  expect(bad.status()).toBe(400);
  expect((await bad.json()).message).toMatch(/^Unknown image modifier "blur_3"/);
  expect((await page.request.get('/_ipx/w_abc/campaigns/campaign-1.jpg')).status()).toBe(400);
  // (`%2e%2e` would be resolved away by the client's own URL parser before it is sent; an encoded `/` is not.)
  expect((await page.request.get('/_ipx/_/..%2f..%2fpackage.json')).status()).toBe(400);
  expect((await page.request.get('/_ipx/f_webp/campaigns/nope.jpg')).status()).toBe(404);
  const clamped = await page.request.get('/_ipx/w_99999&f_webp/campaigns/campaign-5.jpg');
  expect(clamped.status()).toBe(200);
  expect(clamped.headers()['content-type']).toBe('image/webp');
});
