// @vitest-environment happy-dom
/**
 * Web vitals from real visits (src/platform/eventLog.ts decides, src/platform/vitals.ts collects and sends):
 * which page views are sampled, none under Global Privacy Control, and the one report a page sends.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportBody } from '../../api/types';
import { config } from '../../src/config';
import { type EventLogView, sampleVitals } from '../../src/platform/eventLog';
import type * as Vitals from '../../src/platform/vitals';
import type { VitalMetric } from '../../src/platform/vitals';

let collectVitals: typeof Vitals.collectVitals;
let startVitals: typeof Vitals.startVitals;
let vitalOf: typeof Vitals.vitalOf;

// Loaded inside each test: otherwise Stryker counts the module's own lists (the vitals' names, INP's attribution
// fields) as static, covered by no test, and leaves their mutants untested.
beforeEach(async () => {
  vi.resetModules();
  ({ collectVitals, startVitals, vitalOf } = await import('../../src/platform/vitals'));
});

// web-vitals' observers, replaced by ones the test reports through (happy-dom has no performance entries).
const { observed, observer } = vi.hoisted(() => {
  const observed = new Map<string, (metric: VitalMetric) => void>();
  const observer = (name: string) => (report: (metric: VitalMetric) => void) =>
    void observed.set(name, report);
  return { observed, observer };
});
vi.mock('web-vitals/onLCP.js', () => ({ onLCP: observer('LCP') }));
vi.mock('web-vitals/attribution/onINP.js', () => ({ onINP: observer('INP') }));
vi.mock('web-vitals/onCLS.js', () => ({ onCLS: observer('CLS') }));
vi.mock('web-vitals/onTTFB.js', () => ({ onTTFB: observer('TTFB') }));

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

  it('keeps each of the four vitals, and none whose value is not a number', () => {
    for (const name of ['LCP', 'INP', 'CLS', 'TTFB']) {
      expect(vitalOf({ name, value: 100, rating: 'good' })).toEqual({ name, value: 100, rating: 'good' });
      expect(vitalOf({ name, value: Number.NaN, rating: 'good' })).toBeNull();
      expect(vitalOf({ name, value: Number.POSITIVE_INFINITY, rating: 'poor' })).toBeNull();
    }
    expect(vitalOf({ name: 'TTFB', value: 99.5, rating: 'good' })?.value).toBe(100);
  });

  it("keeps only INP's attribution fields that are text or finite numbers", () => {
    const attribution = {
      interactionTarget: { element: 'the DOM node' },
      interactionType: 'keyboard',
      loadState: undefined,
      inputDelay: Number.NaN,
      processingDuration: Number.POSITIVE_INFINITY,
      presentationDelay: 0.4,
    };
    expect(vitalOf({ name: 'INP', value: 50, rating: 'good', attribution })?.attribution).toEqual({
      interactionType: 'keyboard',
      presentationDelay: 0,
    });
    expect(vitalOf({ name: 'INP', value: 50, rating: 'good' })).toEqual({
      name: 'INP',
      value: 50,
      rating: 'good',
    });
    expect(vitalOf({ name: 'INP', value: 50, rating: 'good', attribution: {} })?.attribution).toEqual({});
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

  it('sends at most the configured number of reports per page', () => {
    const reporters: ((metric: VitalMetric) => void)[] = [];
    const send = vi.fn<(report: ReportBody, endpoint: string) => void>();
    collectVitals({ ...config.reports, maxPerPage: 1 }, log, [(report) => void reporters.push(report)], {
      send,
    });
    reporters[0]?.({ name: 'CLS', value: 0.01, rating: 'good' });
    hide('hidden');
    reporters[0]?.({ name: 'CLS', value: 0.3, rating: 'poor' });
    hide('hidden');
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('is dated when the page is hidden, and keeps only the latest value of each vital', () => {
    vi.useFakeTimers({ now: 5000 });
    try {
      const reporters: ((metric: VitalMetric) => void)[] = [];
      const send = vi.fn<(report: ReportBody, endpoint: string) => void>();
      collectVitals(config.reports, log, [(report) => void reporters.push(report)], { send });
      reporters[0]?.({ name: 'INP', value: 80, rating: 'good' });
      reporters[0]?.({ name: 'INP', value: 240, rating: 'needs-improvement' });
      reporters[0]?.({ name: 'FCP', value: 900, rating: 'good' });
      vi.setSystemTime(7000);
      hide('hidden');
      expect(send.mock.calls[0]?.[0]).toMatchObject({
        time: 7000,
        vitals: [{ name: 'INP', value: 240, rating: 'needs-improvement' }],
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('posts to the endpoint, and names the root path for a document without a location', () => {
    const sent = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 201 }));
    vi.stubGlobal('fetch', sent);
    try {
      const target = Object.assign(new EventTarget(), { visibilityState: 'hidden' }) as unknown as Document;
      const reporters: ((metric: VitalMetric) => void)[] = [];
      collectVitals(config.reports, log, [(report) => void reporters.push(report)], { target });
      reporters[0]?.({ name: 'TTFB', value: 99.5, rating: 'good' });
      target.dispatchEvent(new Event('visibilitychange'));
      expect(sent).toHaveBeenCalledTimes(1);
      const [url, init] = sent.mock.calls[0] ?? [];
      expect(url).toBe(config.reports.endpoint);
      expect(JSON.parse(String(init?.body))).toMatchObject({
        route: { path: '/' },
        vitals: [{ name: 'TTFB', value: 100, rating: 'good' }],
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('starting the collector', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'userAgent');
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
    observed.clear();
  });

  const visit = (userAgent: string) => {
    Object.defineProperty(navigator, 'userAgent', { configurable: true, value: userAgent });
    const send = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 201 }));
    vi.stubGlobal('fetch', send);
    startVitals(config.reports, {
      events: [],
      dropped: 0,
      snapshot: undefined,
      boot: null,
    });
    return send;
  };

  it('measures LCP, INP, CLS and TTFB with web-vitals and sends them when the page is hidden', () => {
    const send = visit('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36');
    try {
      expect([...observed.keys()].sort()).toEqual(['CLS', 'INP', 'LCP', 'TTFB']);
      for (const [name, report] of observed) report({ name, value: 1, rating: 'good' });
      Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
      expect(send).toHaveBeenCalledTimes(1);
      const body = JSON.parse(String(send.mock.calls[0]?.[1].body)) as ReportBody;
      expect(body.vitals?.map((vital) => vital.name).sort()).toEqual(['CLS', 'INP', 'LCP', 'TTFB']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('measures nothing for a crawler', () => {
    visit('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    vi.unstubAllGlobals();
    expect(observed.size).toBe(0);
  });
});
