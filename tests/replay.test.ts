// @vitest-environment happy-dom
/**
 * A report made in the browser replays to the same state: the recorder of src/platform/eventLog.ts watches an
 * app actor (with the path tests' fakes) through a campaign navigation whose data answers 500, the reporter
 * sends what the browser would, and tests/support/replay.ts turns that report back into the same state.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportBody } from '../api/types';
import { routeGuards } from '../machines/guards';
import { routes } from '../machines/routes';
import { config } from '../src/config';
import { startEventLog } from '../src/platform/eventLog';
import { startApp } from './support/appHarness';
import { replayInput, replayReport } from './support/replay';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function recordFailedCampaignVisit() {
  const sent = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 201 }));
  vi.stubGlobal('fetch', sent);
  const log = startEventLog(config.reports, new EventTarget() as unknown as Window);
  const app = await startApp({
    input: { ...replayInput({ buildId: 'build-1', boot: null }), routes, guards: routeGuards },
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

describe('replaying a report', () => {
  it('reaches the state the visitor was in when the 500 view showed', async () => {
    const { app, report } = await recordFailedCampaignVisit();
    expect(app.actor.getSnapshot().hasTag('error')).toBe(true);
    expect(report).toMatchObject({
      kind: 'error',
      buildId: 'build-1',
      state: app.actor.getSnapshot().value,
      error: { status: 500, message: 'The demo API failed unexpectedly.' },
      eventsDropped: 0,
    });
    expect(report.events).toContainEqual({ type: 'nav.go', to: '/campaign/1?ref=#' });
    expect(report.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['xstate.done.actor.fetchManifest', 'xstate.error.actor.loadPage']),
    );

    const replay = replayReport(report);
    expect(replay.steps.filter((step) => step.problem)).toEqual([]);
    expect(replay.final).toEqual(report.state);
    expect(replay.matches).toBe(true);
  });

  it('says so when the events do not lead to the reported state', async () => {
    const { report } = await recordFailedCampaignVisit();
    const withoutFailure = {
      ...report,
      events: report.events.filter((event) => !event.type.startsWith('xstate.error.actor.')),
    };
    const replay = replayReport(withoutFailure);
    expect(replay.matches).toBe(false);
  });

  it('flags a timer that is not running where the report says it fired', () => {
    const replay = replayReport({
      buildId: 'build-1',
      boot: null,
      eventsDropped: 3,
      state: 'x',
      events: [{ type: 'xstate.after.slowNavigation.app.navigation.loading.quick' }],
    });
    expect(replay.partial).toBe(true);
    expect(replay.steps[0]?.problem).toBe(
      'no xstate.after.slowNavigation.app.navigation.loading.quick timer is running here',
    );
  });
});
