// @vitest-environment happy-dom
/**
 * Web vitals from real visits (src/platform/eventLog.ts decides, src/platform/vitals.ts collects and sends):
 * which page views are sampled, none under Global Privacy Control, and the one report a page sends.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReportBody } from '../api/types';
import { config } from '../src/config';
import { type EventLogView, sampleVitals } from '../src/platform/eventLog';
import { collectVitals, type VitalMetric, vitalOf } from '../src/platform/vitals';

const nav = (globalPrivacyControl?: boolean) => ({ globalPrivacyControl }) as unknown as Navigator;

describe('sampling', () => {
  it('samples a rate share of page views', () => {
    expect(sampleVitals(0.1, () => 0.0999, nav())).toBe(true);
    expect(sampleVitals(0.1, () => 0.1, nav())).toBe(false);
    expect(sampleVitals(0, () => 0, nav())).toBe(false);
    expect(sampleVitals(1, () => 0.9999, nav(false))).toBe(true);
  });

  it('never samples when the browser sends Global Privacy Control', () => {
    const random = vi.fn(() => 0);
    expect(sampleVitals(1, random, nav(true))).toBe(false);
  });

  it('samples a tenth of views with the shipped configuration', () => {
    expect(config.reports.vitalsSampleRate).toBe(0.1);
  });
});

describe('a vital as reported', () => {
  it('keeps name, rounded value and rating; INP keeps a short attribution', () => {
    expect(vitalOf({ name: 'LCP', value: 1234.56, rating: 'good', attribution: { url: 'x' } })).toEqual({
      name: 'LCP',
      value: 1235,
      rating: 'good',
    });
    expect(vitalOf({ name: 'CLS', value: 0.123456, rating: 'needs-improvement' })?.value).toBe(0.1235);
    expect(
      vitalOf({
        name: 'INP',
        value: 312.4,
        rating: 'poor',
        attribution: {
          interactionTarget: `button.save${'x'.repeat(400)}`,
          interactionType: 'pointer',
          inputDelay: 10.6,
          processingDuration: 250.2,
          presentationDelay: 51.6,
          loadState: 'complete',
          processedEventEntries: [{}],
          longAnimationFrameEntries: [{}],
        },
      }),
    ).toEqual({
      name: 'INP',
      value: 312,
      rating: 'poor',
      attribution: {
        interactionTarget: `button.save${'x'.repeat(289)}`,
        interactionType: 'pointer',
        inputDelay: 11,
        processingDuration: 250,
        presentationDelay: 52,
        loadState: 'complete',
      },
    });
    expect(vitalOf({ name: 'FCP', value: 1, rating: 'good' })).toBeNull();
  });
});

describe('the vitals report', () => {
  afterEach(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
  });

  const hide = (state: 'hidden' | 'visible') => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: state });
    document.dispatchEvent(new Event('visibilitychange'));
  };

  const log: EventLogView = {
    events: [{ type: 'nav.go', to: '/campaign/1' }],
    dropped: 3,
    snapshot: {
      value: { navigation: 'idle' },
      context: { current: { route: 'campaign' }, error: null, build: { id: 'build-7' } },
      hasTag: () => false,
    },
    boot: { path: '/campaign/1', title: 'Maple' },
  };

  it('sends what was measured, once, when the page is hidden', () => {
    window.history.replaceState(null, '', '/campaign/1?secret=1#x');
    const reporters: ((metric: VitalMetric) => void)[] = [];
    const observe = (report: (metric: VitalMetric) => void) => void reporters.push(report);
    const send = vi.fn<(report: ReportBody, endpoint: string) => void>();
    collectVitals(config.reports, log, [observe, observe], { send });
    const [lcp, cls] = reporters;
    lcp?.({ name: 'LCP', value: 2100, rating: 'good' });
    cls?.({ name: 'CLS', value: 0.01, rating: 'good' });
    expect(send).not.toHaveBeenCalled();
    hide('visible');
    expect(send).not.toHaveBeenCalled();

    hide('hidden');
    expect(send).toHaveBeenCalledTimes(1);
    const [report, endpoint] = send.mock.calls[0] ?? [];
    expect(endpoint).toBe(config.reports.endpoint);
    expect(report).toEqual({
      kind: 'vitals',
      buildId: 'build-7',
      route: { name: 'campaign', path: '/campaign/1' },
      state: { navigation: 'idle' },
      events: [],
      eventsDropped: 0,
      boot: { path: '/campaign/1', title: null },
      vitals: [
        { name: 'LCP', value: 2100, rating: 'good' },
        { name: 'CLS', value: 0.01, rating: 'good' },
      ],
      time: expect.any(Number),
    });

    // Nothing new: nothing sent. A CLS that grew after the visitor came back: sent on the next hide.
    hide('hidden');
    expect(send).toHaveBeenCalledTimes(1);
    cls?.({ name: 'CLS', value: 0.2, rating: 'needs-improvement' });
    hide('hidden');
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]?.[0].vitals).toEqual([
      { name: 'CLS', value: 0.2, rating: 'needs-improvement' },
    ]);
  });
});
