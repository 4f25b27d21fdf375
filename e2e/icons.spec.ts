/**
 * Icons: the app's own icons are inlined at build (no request), others come from the same-origin endpoint in
 * one batched request, and after 1500 ms without an answer from the public Iconify API. There is no internet
 * here, so every request to the public API is fulfilled from the locally installed collection.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IconifyJSON } from '@iconify/types';
import { getIcons } from '@iconify/utils';
import type { Page, Request, Route } from '@playwright/test';
import { CAMPAIGNS, DEMO, expect, header, mainNav, openPage, signInViaApi, test } from './fixtures';

const lucide = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@iconify-json/lucide/icons.json'), 'utf8'),
) as IconifyJSON;

const GALLERY = '/campaign/components/info';
/** The gallery's on-demand icons, in the order it renders them; the last does not exist. */
const ON_DEMAND = ['telescope', 'sailboat', 'tent', 'no-such-icon'];
const ENDPOINT = /\/api\/_nuxt_icon\//;
const FALLBACK = /^https:\/\/api\.iconify\.design\//;

function icon(page: Page, name: string) {
  return page.locator(`[data-icon="lucide:${name}"]`);
}

function askedFor(request: Request): string[] {
  return (new URL(request.url()).searchParams.get('icons') ?? '').split(',');
}

/** Answers as the public Iconify API would, from the installed collection. */
function fulfilFromFixture(route: Route): Promise<void> {
  const names = askedFor(route.request());
  return route.fulfill({
    json: getIcons(lucide, names, true),
    headers: { 'access-control-allow-origin': '*' },
  });
}

/** Records every icon request the page makes, to the endpoint and to the public API. */
function recordIconRequests(page: Page): { endpoint: Request[]; fallback: Request[] } {
  const seen = { endpoint: [] as Request[], fallback: [] as Request[] };
  page.on('request', (request) => {
    if (ENDPOINT.test(request.url())) seen.endpoint.push(request);
    if (FALLBACK.test(request.url())) seen.fallback.push(request);
  });
  return seen;
}

async function expectLoaded(page: Page, name: string): Promise<void> {
  await expect(icon(page, name).first()).toHaveAttribute('data-state', 'loaded');
  await expect(icon(page, name).first().locator('svg path, svg g').first()).toBeAttached();
}

test('the app’s own icons render on first load with no request', async ({ page }) => {
  const seen = recordIconRequests(page);
  await openPage(page, '/', /Campaigns that move/);
  await expectLoaded(page, 'log-in');
  await expect(mainNav(page).getByRole('link', { name: 'Sign in' })).toBeVisible();

  await openPage(page, `/campaign/${CAMPAIGNS.maple.id}`, CAMPAIGNS.maple.title);
  await expectLoaded(page, 'arrow-left');

  await signInViaApi(page, DEMO);
  await openPage(page, '/home', /Welcome back/);
  for (const name of ['house', 'user-round', 'log-out']) await expectLoaded(page, name);
  // Decorative inside a named link or button: hidden from assistive technology.
  await expect(header(page).locator('[data-icon="lucide:house"]')).toHaveAttribute('aria-hidden', 'true');
  await expect(header(page).getByRole('button', { name: 'Sign out' })).toBeVisible();

  expect(seen.endpoint.map((r) => r.url())).toEqual([]);
  expect(seen.fallback.map((r) => r.url())).toEqual([]);
});

test('icons the build did not inline come from the endpoint, all in one request', async ({ page }) => {
  const seen = recordIconRequests(page);
  const answered = page.waitForResponse(ENDPOINT);
  await openPage(page, GALLERY, 'Component gallery');
  const response = await answered;
  expect(new URL(response.url()).pathname).toBe('/api/_nuxt_icon/lucide.json');
  expect(askedFor(response.request()).sort()).toEqual([...ON_DEMAND].sort());
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/json; charset=utf-8');

  for (const name of ['telescope', 'sailboat', 'tent']) {
    await expectLoaded(page, name);
    await expect(page.getByRole('img', { name, exact: true })).toBeVisible();
  }
  await expect(icon(page, 'no-such-icon')).toHaveAttribute('data-state', 'missing');
  expect(await icon(page, 'no-such-icon').boundingBox()).toMatchObject({ width: 24, height: 24 });
  expect(seen.endpoint).toHaveLength(1);
  expect(seen.fallback).toHaveLength(0);
});

test('an endpoint slower than 1500 ms makes the public API answer instead', async ({ page }) => {
  // The page's clock is ours and stands still unless the test moves it; each request is stamped with the
  // page's own time, so the timeout is checked to the millisecond, not against a busy machine's wall time.
  await page.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
  await page.clock.pauseAt(new Date('2026-01-01T00:00:01Z'));
  await page.addInitScript(() => {
    const log: { url: string; at: number }[] = [];
    const original = window.fetch;
    Object.defineProperty(window, 'e2eFetchLog', { value: log });
    window.fetch = (input, init) => {
      log.push({ url: input instanceof Request ? input.url : String(input), at: performance.now() });
      return original.call(window, input, init);
    };
  });
  const held: Route[] = [];
  await page.route(ENDPOINT, (route) => {
    held.push(route); // never answered in time
  });
  await page.route(FALLBACK, fulfilFromFixture);
  const fallback = page.waitForRequest(FALLBACK);
  await openPage(page, GALLERY, 'Component gallery');
  const fetchLog = () =>
    page.evaluate(() => (window as unknown as { e2eFetchLog: { url: string; at: number }[] }).e2eFetchLog);
  // Moves page time in 50 ms steps until the fallback goes out (3 s of page time at most).
  for (let step = 0; step < 60; step += 1) {
    if ((await fetchLog()).some((entry) => entry.url.includes('iconify.design'))) break;
    await page.clock.runFor(50);
  }
  const request = await fallback;
  expect(new URL(request.url()).pathname).toBe('/lucide.json');
  expect(askedFor(request).sort()).toEqual([...ON_DEMAND].sort());
  expect(held).toHaveLength(1);
  const log = await page.evaluate(
    () => (window as unknown as { e2eFetchLog: { url: string; at: number }[] }).e2eFetchLog,
  );
  const asked = log.find((entry) => entry.url.includes('/api/_nuxt_icon/'));
  const fellBack = log.find((entry) => entry.url.includes('iconify.design'));
  // Not before the timeout, and right after it (the clock moves in 50 ms steps).
  expect((fellBack?.at ?? 0) - (asked?.at ?? 0)).toBeGreaterThanOrEqual(1_500);
  expect((fellBack?.at ?? 0) - (asked?.at ?? 0)).toBeLessThan(1_600);

  for (const name of ['telescope', 'sailboat', 'tent']) await expectLoaded(page, name);
  await expect(icon(page, 'no-such-icon')).toHaveAttribute('data-state', 'missing');
  // The late answer changes nothing and breaks nothing.
  await Promise.all(held.map((route) => route.continue().catch(() => {})));
  await expectLoaded(page, 'telescope');
});

test('an endpoint answering something that is not JSON makes the public API answer at once', async ({
  page,
}) => {
  await page.route(ENDPOINT, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
  );
  await page.route(FALLBACK, fulfilFromFixture);
  const fallback = page.waitForRequest(FALLBACK);
  await openPage(page, GALLERY, 'Component gallery');
  await fallback;
  await expectLoaded(page, 'sailboat');
});

test('when the endpoint and the public API both fail, each icon keeps its box and nothing throws', async ({
  page,
}) => {
  await page.route(ENDPOINT, (route) => route.abort('failed'));
  await page.route(FALLBACK, (route) => route.abort('internetdisconnected'));
  const fallback = page.waitForRequest(FALLBACK);
  await openPage(page, GALLERY, 'Component gallery');
  await fallback;
  for (const name of ON_DEMAND) {
    await expect(icon(page, name)).toHaveAttribute('data-state', 'missing');
    expect(await icon(page, name).boundingBox(), name).toMatchObject({ width: 24, height: 24 });
    await expect(icon(page, name).locator('svg')).toHaveCount(0);
  }
  // Its label still names it, so the list reads the same.
  await expect(page.getByRole('img', { name: 'tent', exact: true })).toBeVisible();
  // The inlined icons beside them are unaffected.
  await expectLoaded(page, 'house');
});

test('a hostile icon body from the public API renders only its allow-listed SVG, and nothing runs', async ({
  page,
}) => {
  // The body used to go in as markup behind a blocklist that `<image/onerror=...>` (no space) got past. The
  // fixture fails the test if any dialog opens.
  const hostile = {
    telescope: '<image/onerror="alert(1)" href="x"/>',
    sailboat:
      '<image href="x" onerror="alert(2)"/><path d="M4 4h16" stroke="currentColor" onclick="alert(3)"/>',
    tent: '<a href="javascript:alert(4)"><path d="M4 4h16"/></a><path d="M4 20h16" stroke="currentColor"/>',
  };
  await page.route(ENDPOINT, (route) => route.abort('failed'));
  await page.route(FALLBACK, (route) =>
    route.fulfill({
      json: {
        prefix: 'lucide',
        width: 24,
        height: 24,
        icons: Object.fromEntries(Object.entries(hostile).map(([name, body]) => [name, { body }])),
      },
      headers: { 'access-control-allow-origin': '*' },
    }),
  );
  const fallback = page.waitForRequest(FALLBACK);
  await openPage(page, GALLERY, 'Component gallery');
  await fallback;
  await expect(icon(page, 'telescope')).toHaveAttribute('data-state', 'missing');
  await expect(icon(page, 'sailboat')).toHaveAttribute('data-state', 'loaded');
  await expect(icon(page, 'tent')).toHaveAttribute('data-state', 'loaded');
  const rendered = page.locator('[data-icon="lucide:sailboat"], [data-icon="lucide:tent"]').locator('svg');
  await expect(rendered.locator('path')).toHaveCount(2);
  await expect(rendered.locator('image, a')).toHaveCount(0);
  const attributes = await rendered.evaluateAll((svgs) =>
    svgs.flatMap((svg) => [...svg.querySelectorAll('*')].flatMap((element) => element.getAttributeNames())),
  );
  expect(attributes.filter((name) => name.startsWith('on') || name.includes('href'))).toEqual([]);
});
