// @vitest-environment happy-dom
/**
 * A report made in the browser (tests/support/recordReport.ts: a campaign navigation whose data answers 500)
 * replays to the same state through tests/support/replay.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordFailedCampaignVisit } from '../../support/recordReport';
import { replayReport } from '../../support/replay';
import { BUILD_ID } from '../../support/reportFixture';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('replaying a report', () => {
  it('reaches the state the visitor was in when the 500 view showed', async () => {
    const { app, report } = await recordFailedCampaignVisit();
    expect(app.actor.getSnapshot().hasTag('error')).toBe(true);
    expect(report).toMatchObject({
      kind: 'error',
      buildId: BUILD_ID,
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
