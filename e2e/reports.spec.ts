/**
 * Error reports a developer can replay (issue 23): a visitor's 500 view on a campaign navigation produces a
 * stored report with the app machine's state and the navigation's events, and tests/support/replay.ts turns
 * it into the same state in Node.
 */
import { REPORTS_TOKEN } from '../playwright.config';
import type { StoredReport } from '../server/types';
import { replayReport } from '../tests/support/replay';
import { CAMPAIGNS, expect, expectPage, LANDING_TITLE, openPage, test } from './fixtures';

test('a 500 view on a campaign navigation is reported, stored, and replays to the same state', async ({
  page,
  request,
}) => {
  // Campaign 1 is prerendered: without its payload the navigation asks the API, which fails. Both are routed
  // before the landing page opens, which warms the payloads of the pages it links to.
  await page.route('**/campaign/1/_payload.json*', (route) => route.fulfill({ status: 404 }));
  await page.route('**/api/campaigns/1', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'Boom' }),
    }),
  );
  await openPage(page, '/', LANDING_TITLE);
  const sent = page.waitForResponse(
    (response) => response.url().endsWith('/api/reports') && response.request().method() === 'POST',
  );
  await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
  await expectPage(page, { url: '/campaign/1', heading: '500' });

  const response = await sent;
  expect(response.status()).toBe(201);
  // No cookie goes with a report.
  expect(await response.request().headerValue('cookie')).toBeNull();
  const { id } = (await response.json()) as { id: string };

  const listed = await request.get(`/api/reports?id=${id}`, {
    headers: { authorization: `Bearer ${REPORTS_TOKEN}` },
  });
  expect(listed.status()).toBe(200);
  const [report] = ((await listed.json()) as { reports: StoredReport[] }).reports;
  if (!report) throw new Error(`report ${id} was not stored`);
  expect(report).toMatchObject({
    id,
    kind: 'error',
    route: { name: 'campaign', path: '/campaign/1' },
    error: { status: 500, message: 'Boom' },
    state: { navigation: 'idle', errors: 'shown' },
  });
  expect(report.events).toContainEqual({ type: 'nav.go', to: '/campaign/1' });
  expect(report.events.map((event) => event.type)).toContain('xstate.error.actor.loadPage');

  const replay = replayReport(report);
  expect(replay.steps.filter((step) => step.problem)).toEqual([]);
  expect(replay.final).toEqual(report.state);
  expect(replay.matches).toBe(true);
});

test('a report from another site is refused', async ({ request }) => {
  const response = await request.post('/api/reports', {
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    data: { kind: 'error' },
  });
  expect(response.status()).toBe(403);
});
