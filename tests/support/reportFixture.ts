// One well-formed report, as the app's reporter sends it (src/platform/reporter.ts): the API tests of reports
// change what they test from this. Its time is the API clock the tests set (`now`).
import type { ReportBody } from '../../api/types';

/** A build id of the shape the build makes (core/untrustedText.ts BUILD_ID_PATTERN). */
export const BUILD_ID = 'mhx3k2a1-0a1b2c3d';

export function sampleReport(overrides: Partial<ReportBody> = {}, time = Date.UTC(2026, 0, 1)): ReportBody {
  return {
    kind: 'error',
    buildId: BUILD_ID,
    route: { name: 'campaign', path: '/campaign/1' },
    state: { navigation: 'settled', build: 'ready', errors: 'showing', freshness: 'fresh' },
    events: [
      { type: 'page.changed', visible: true, online: true },
      { type: 'nav.popped', to: '/campaign/1' },
    ],
    eventsDropped: 0,
    boot: null,
    error: { name: 'ApiError', message: 'The demo API failed unexpectedly.', status: 500 },
    time,
    ...overrides,
  };
}

/** The same report as a vitals sample. */
export function sampleVitals(overrides: Partial<ReportBody> = {}, time = Date.UTC(2026, 0, 1)): ReportBody {
  const { error: _error, ...rest } = sampleReport({}, time);
  return {
    ...rest,
    kind: 'vitals',
    vitals: [
      { name: 'LCP', value: 812.5, rating: 'good' },
      {
        name: 'INP',
        value: 96,
        rating: 'good',
        attribution: { interactionTarget: 'a.card', interactionType: 'pointer' },
      },
    ],
    ...overrides,
  };
}
