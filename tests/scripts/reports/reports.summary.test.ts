// @vitest-environment node
/**
 * What `npm run reports` makes of the stored reports (scripts/reports/reports.ts): errors grouped by error and
 * build, and each route's web vitals as a 75th percentile with the number of samples it rests on. Field data
 * is self-reported (docs/reports.md), so how few samples a figure rests on is part of the figure.
 */
import { describe, expect, it } from 'vitest';
import type { ReportBody, StoredReport } from '../../../api/types';
import { percentile, summarise } from '../../../scripts/reports/reports';
import { sampleReport, sampleVitals } from '../../support/reportFixture';

/** A report as the listing returns it, received `second` seconds into 2026 (the listing puts the newest first). */
const listed = (body: ReportBody, second: number): StoredReport => ({
  ...body,
  id: `report-${second}`,
  receivedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
});

const vitals = (route: ReportBody['route'], values: Partial<Record<'LCP' | 'INP' | 'CLS', number>>) =>
  sampleVitals({
    route,
    vitals: Object.entries(values).map(([name, value]) => ({
      name: name as 'LCP' | 'INP' | 'CLS',
      value,
      rating: 'good' as const,
    })),
  });

describe('percentile', () => {
  it('takes the nearest rank, as CrUX reports p75', () => {
    expect(percentile([40, 10, 30, 20], 0.75)).toBe(30);
    expect(percentile([10, 20, 30, 40, 50], 0.75)).toBe(40);
    expect(percentile([7], 0.75)).toBe(7);
    expect(percentile([1, 2], 0.5)).toBe(1);
    expect(percentile([3, 1, 2], 1)).toBe(3);
    expect(percentile([3, 1, 2], 0)).toBe(1);
  });

  it('leaves the samples in their order, and has no figure for none', () => {
    const values = [3, 1, 2];
    percentile(values, 0.75);
    expect(values).toEqual([3, 1, 2]);
    expect(percentile([], 0.75)).toBeNaN();
  });

  it('sorts numbers as numbers, not as text', () => {
    expect(percentile([900, 1000, 80, 100], 0.75)).toBe(900);
  });
});

describe('summarise', () => {
  it('gives each route its p75 per vital and the number of samples it rests on', () => {
    const campaign = { name: 'campaign', path: '/campaign/1' };
    const summary = summarise([
      listed(vitals(campaign, { LCP: 2400, INP: 96 }), 4),
      listed(vitals({ name: 'campaign', path: '/campaign/2' }, { LCP: 900 }), 3),
      listed(vitals(campaign, { LCP: 1200, INP: 300 }), 2),
      listed(vitals({ name: null, path: '/nowhere' }, { CLS: 0.25 }), 1),
    ]);
    expect(summary.reports).toBe(4);
    expect(summary.errors).toEqual([]);
    // One route by its name, whatever its path; a path that matches no route by the path.
    expect(summary.vitals).toEqual([
      {
        route: 'campaign',
        p75: { LCP: { value: 2400, samples: 3 }, INP: { value: 300, samples: 2 } },
      },
      { route: '/nowhere', p75: { CLS: { value: 0.25, samples: 1 } } },
    ]);
  });

  it('groups errors by error, status and build, newest report named, most frequent first', () => {
    const failed = sampleReport();
    const otherBuild = sampleReport({ buildId: 'mhx3k2a2-0a1b2c3d' });
    const notFound = sampleReport({
      route: { name: 'campaign', path: '/campaign/9' },
      error: { name: 'ApiError', message: 'No such campaign.', status: 404 },
    });
    const summary = summarise([
      listed(notFound, 5),
      listed({ ...failed, route: { name: 'index', path: '/' } }, 4),
      listed(otherBuild, 3),
      listed(failed, 2),
      listed(failed, 1),
    ]);
    const [first, ...rest] = summary.errors;
    expect(first).toEqual({
      error: 'ApiError: The demo API failed unexpectedly.',
      status: 500,
      buildId: failed.buildId,
      count: 3,
      routes: ['/', '/campaign/1'],
      lastSeen: '2026-01-01T00:00:04.000Z',
      latestId: 'report-4',
    });
    // Groups of one: the newest first.
    expect(rest.map((group) => [group.count, group.status, group.buildId, group.latestId])).toEqual([
      [1, 404, failed.buildId, 'report-5'],
      [1, 500, otherBuild.buildId, 'report-3'],
    ]);
    expect(summary.vitals).toEqual([]);
  });
});
