/**
 * Error reports a developer can replay: a visitor's 500 view on a campaign navigation produces a
 * stored report with the app machine's state and the navigation's events, and tests/support/replay.ts turns
 * it into the same state in Node.
 */

import type { StoredReport } from '../api/types';
import { REPORTS_TOKEN } from '../playwright.config';
import { replayReport } from '../tests/support/replay';
import { CAMPAIGNS, expect, expectPage, LANDING_TITLE, openPage, test } from './fixtures';

/** Other specs show 500s on the same page; this one's report is told apart by its message. */
const MESSAGE = 'Boom (reports.spec)';

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
      body: JSON.stringify({ message: MESSAGE }),
    }),
  );
  await openPage(page, '/', LANDING_TITLE);
  await page.getByRole('link', { name: CAMPAIGNS.maple.title }).click();
  await expectPage(page, { url: '/campaign/1', heading: '500' });

  // A keepalive fetch is handed to the browser process, where Playwright's network events may not see it:
  // the stored report is what counts, so it is read back until it is there.
  let report: StoredReport | undefined;
  await expect
    .poll(
      async () => {
        const listed = await request.get('/api/reports?limit=100', {
          headers: { authorization: `Bearer ${REPORTS_TOKEN}` },
        });
        const { reports } = (await listed.json()) as { reports: StoredReport[] };
        report = reports.find((candidate) => candidate.error?.message === MESSAGE);
        return report !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  if (!report) throw new Error('no report was stored');
  expect(report).toMatchObject({
    kind: 'error',
    route: { name: 'campaign', path: '/campaign/1' },
    error: { status: 500, message: MESSAGE },
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
