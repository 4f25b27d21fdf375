/**
 * Images through the same-origin optimiser: the URLs the page asks for, candidates by width with the slot's
 * `sizes` (a phone takes the one its column needs), webp that decodes, a reserved box (CLS 0) and a placeholder
 * when the optimiser answers an error.
 */
import type { Locator, Page, Response } from '@playwright/test';
import { CAMPAIGNS, expect, mainHeading, openPage, test } from './fixtures';

const HERO_1X = '/_ipx/f_webp&q_70&fit_cover&s_1104x368/campaigns/campaign-1.jpg';
const HERO_2X = '/_ipx/f_webp&q_70&fit_cover&s_2048x683/campaigns/campaign-1.jpg';
const HERO_WIDTHS = [
  [320, 107],
  [640, 213],
  [768, 256],
  [1024, 341],
  [1104, 368],
  [1280, 427],
  [1536, 512],
  [2048, 683],
];
const HERO_SIZES = '(min-width: 1152px) 1104px, (min-width: 768px) calc(100vw - 48px), calc(100vw - 32px)';
const CARD_SIZES = '(min-width: 1280px) 356px, (min-width: 768px) calc(50vw - 34px), calc(100vw - 34px)';

/** The card thumbnail of `name` at `width` px (16:9). */
function cardUrl(name: string, width: number): string {
  return `/_ipx/f_webp&q_70&fit_cover&s_${width}x${Math.round((width * 270) / 480)}/campaigns/${name}`;
}

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

test('the campaign hero asks the optimiser for the width its slot needs, offers the others, and decodes as webp', async ({
  page,
}) => {
  const answered = page.waitForResponse(isImage('campaign-1.jpg'));
  // The prerendered HTML has the hero in it, so the load event waits for it: wait for the document only.
  await page.goto(`/campaign/${CAMPAIGNS.maple.id}`, { waitUntil: 'domcontentloaded' });
  await expect(mainHeading(page)).toHaveText(CAMPAIGNS.maple.title);
  const image = hero(page);
  await expect(image).toHaveAttribute('src', HERO_1X);
  await expect(image).toHaveAttribute(
    'srcset',
    HERO_WIDTHS.map(
      ([w, h]) => `/_ipx/f_webp&q_70&fit_cover&s_${w}x${h}/campaigns/campaign-1.jpg ${w}w`,
    ).join(', '),
  );
  await expect(image).toHaveAttribute('sizes', HERO_SIZES);
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
    // the 2048w candidate in a 1104 px slot reports at 1104/2048 of their size.
    const decoded = await decode(hero(page));
    expect(decoded.currentSrc).toBe(HERO_2X);
    expect(Math.abs(decoded.width - (1200 * 1104) / 2048)).toBeLessThan(1);
    expect(Math.abs(decoded.height - (400 * 1104) / 2048)).toBeLessThan(1);
  });
});

test.describe('on a phone (412 px wide, density 1.75, as Lighthouse’s mobile profile)', () => {
  test.use({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });

  /** Paths of the requests for `name` through the optimiser, from now on. */
  function requestsFor(page: Page, name: string): string[] {
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/_ipx/') && url.pathname.endsWith(name)) asked.push(url.pathname);
    });
    return asked;
  }

  test('the first card takes the 768 px candidate its 378 px column needs (not 2x, 960), asked for once', async ({
    page,
  }) => {
    // The first card is the newest live campaign's.
    const asked = requestsFor(page, 'campaign-6.jpg');
    await openPage(page, '/', /Campaigns that move/);
    const first = page.getByRole('main').locator('article img').first();
    expect((await first.boundingBox())?.width).toBeCloseTo(378, 0);
    expect((await decode(first)).currentSrc).toBe(cardUrl('campaign-6.jpg', 768));
    // The preload in the HTML's head chose the same candidate as the image: one request.
    expect(asked).toEqual([cardUrl('campaign-6.jpg', 768)]);
  });

  test('the campaign hero takes the 768 px candidate its 380 px slot needs, asked for once', async ({
    page,
  }) => {
    const asked = requestsFor(page, 'campaign-1.jpg');
    await openPage(page, `/campaign/${CAMPAIGNS.maple.id}`, CAMPAIGNS.maple.title);
    expect((await hero(page).boundingBox())?.width).toBeCloseTo(380, 0);
    const url = '/_ipx/f_webp&q_70&fit_cover&s_768x256/campaigns/campaign-1.jpg';
    expect((await decode(hero(page))).currentSrc).toBe(url);
    expect(asked).toEqual([url]);
  });
});

test('the first campaign card loads its thumbnail at once (the largest paint on a phone), the others lazily, each with candidates by width', async ({
  page,
}) => {
  // The live campaigns, newest first.
  const thumbnails = ['campaign-6.jpg', 'campaign-2.jpg', 'campaign-1.jpg'];
  const answers = thumbnails.map((name) => page.waitForResponse(isImage(name)));
  await openPage(page, '/', /Campaigns that move/);
  const cards = page.getByRole('main').locator('article img');
  await expect(cards).toHaveCount(3);
  for (const [index, name] of thumbnails.entries()) {
    const card = cards.nth(index);
    await expect(card).toHaveAttribute('src', cardUrl(name, 480));
    await expect(card).toHaveAttribute(
      'srcset',
      [320, 480, 640, 768, 960].map((width) => `${cardUrl(name, width)} ${width}w`).join(', '),
    );
    await expect(card).toHaveAttribute('sizes', CARD_SIZES);
    await expect(card).toHaveAttribute('loading', index === 0 ? 'eager' : 'lazy');
    if (index === 0) await expect(card).toHaveAttribute('fetchpriority', 'high');
    else await expect(card).not.toHaveAttribute('fetchpriority', /./);
    await expect(card).toHaveAttribute('width', '480');
    await expect(card).toHaveAttribute('height', '270');
    await card.scrollIntoViewIfNeeded();
  }
  for (const answer of answers) await expectWebp(await answer);
  // 1280 px wide: three columns, each image 356 px by `sizes`, so at density 1 the 480 px candidate, which the
  // browser reports at the slot's size.
  expect(await decode(cards.last())).toEqual({
    currentSrc: cardUrl('campaign-1.jpg', 480),
    width: 356,
    height: 200,
  });
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
