/**
 * A report as the browser makes it: the recorder of src/platform/eventLog.ts watches an app actor (with the path
 * tests' fakes) through a campaign navigation whose data answers 500, and the reporter sends what the browser
 * would. Shared by the replay's unit test and the report commands' test.
 */
import { expect, vi } from 'vitest';
import type { ReportBody } from '../../api/types';
import { routes } from '../../core/routes';
import { routeGuards } from '../../machines/app/app.navigation';
import { config } from '../../src/config';
import { startEventLog } from '../../src/platform/eventLog';
import { startApp } from './appHarness';
import { replayInput } from './replay';
import { BUILD_ID } from './reportFixture';

/** Stubs the global `fetch` to catch the report; the caller unstubs it (`vi.unstubAllGlobals`). */
export async function recordFailedCampaignVisit() {
  const sent = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 201 }));
  vi.stubGlobal('fetch', sent);
  const log = startEventLog(config.reports, new EventTarget() as unknown as Window);
  const app = await startApp({
    input: { ...replayInput({ buildId: BUILD_ID, boot: null }), routes, guards: routeGuards },
    inspect: (event) => log.inspect.next?.(event),
  });
  app.send({ type: 'page.changed', visible: true, online: true });
  app.send({ type: 'session.changed', signedIn: false });
  app.send({ type: 'nav.popped', to: '/' });
  await app.finishLoad({ campaigns: [] }, 'Campaigns');
  app.send({ type: 'nav.go', to: '/campaign/1?ref=newsletter#donate' });
  await app.failLoad(Object.assign(new Error('The demo API failed unexpectedly.'), { statusCode: 500 }));
  await vi.waitFor(() => expect(sent).toHaveBeenCalledTimes(1));
  const [url, init] = sent.mock.calls[0] ?? [];
  expect(url).toBe('/api/reports');
  expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' });
  return { app, report: JSON.parse(String(init?.body)) as ReportBody };
}
