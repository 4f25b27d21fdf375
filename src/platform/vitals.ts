/**
 * Web vitals from real visits: LCP, INP (with what caused it), CLS and TTFB of a sampled page view, sent as
 * one vitals report (POST /api/reports) when the page is hidden. ./eventLog.ts decides whether this visit is
 * sampled (`sampleVitals`) and loads this module only then, when the browser is idle after the first page
 * is on screen. web-vitals observes with `buffered: true`, so the LCP and TTFB that happened before it
 * loaded are still seen. Crawlers send nothing.
 *
 * Deep imports: `web-vitals` and `web-vitals/attribution` are separate bundles; the modules under them are
 * shared, so attribution for INP alone costs only INP's attribution code.
 */
import { isbot } from 'isbot';
import { onINP } from 'web-vitals/attribution/onINP.js';
import { onCLS } from 'web-vitals/onCLS.js';
import { onLCP } from 'web-vitals/onLCP.js';
import { onTTFB } from 'web-vitals/onTTFB.js';
import type { ReportedVital, VitalName } from '../../api/types';
import type { ReportsConfig } from '../config';
import { buildReport, sendReport } from './reporter';
import type { EventLogView } from './reportTypes';

/** The fields of a web-vitals metric a report keeps. */
export interface VitalMetric {
  readonly name: string;
  readonly value: number;
  readonly rating: ReportedVital['rating'];
  readonly attribution?: object;
}

type Observe = (report: (metric: VitalMetric) => void) => void;

const NAMES: readonly string[] = ['LCP', 'INP', 'CLS', 'TTFB'] satisfies VitalName[];

/** INP's attribution, cut to what says which interaction was slow and where its time went. */
const INP_ATTRIBUTION = [
  'interactionTarget',
  'interactionType',
  'loadState',
  'inputDelay',
  'processingDuration',
  'presentationDelay',
] as const;

export function vitalOf(metric: VitalMetric): ReportedVital | null {
  if (!NAMES.includes(metric.name) || !Number.isFinite(metric.value)) return null;
  const vital: ReportedVital = {
    name: metric.name as VitalName,
    // CLS is a unitless score; the rest are milliseconds, where a fraction says nothing.
    value: metric.name === 'CLS' ? Math.round(metric.value * 10_000) / 10_000 : Math.round(metric.value),
    rating: metric.rating,
  };
  if (metric.name === 'INP' && metric.attribution) {
    const source = metric.attribution as Record<string, unknown>;
    const attribution: Record<string, string | number> = {};
    for (const key of INP_ATTRIBUTION) {
      const field = source[key];
      // A selector, not text from the page: no visitor's input ends up in it.
      if (typeof field === 'string') attribution[key] = field.slice(0, 300);
      // Stryker disable next-line ConditionalExpression: the check is followed by `Number.isFinite(field)`, which (unlike the global isFinite) never coerces and is false for every non-number (strings, objects, undefined, booleans), so the branch is still taken only for finite numbers. The typeof is there to narrow the type for Math.round. tests/platform/vitals.test.ts "keeps only INP's attribution fields that are text or finite numbers" passes an object, undefined, NaN and Infinity.
      else if (typeof field === 'number' && Number.isFinite(field)) attribution[key] = Math.round(field);
    }
    vital.attribution = attribution;
  }
  return vital;
}

/**
 * Collects the vitals `observers` report and sends those not sent yet each time the page is hidden (usually
 * once: LCP and TTFB are final by then; CLS and INP report again only if they grew after the visitor came
 * back). The report is of the first page (its route and path), as field data is counted per page load.
 */
export function collectVitals(
  config: ReportsConfig,
  log: EventLogView,
  observers: readonly Observe[],
  options: { readonly send?: typeof sendReport; readonly target?: Document } = {},
): void {
  const { send = sendReport, target = document } = options;
  const first: EventLogView = { events: [], dropped: 0, snapshot: log.snapshot, boot: log.boot };
  // Stryker disable next-line StringLiteral: the path is only passed to buildReport, whose barePath maps an empty path to '/' (`value.split(/[?#]/)[0] || '/'` in reportScrub.ts), so a document without a location is reported at '/' either way; tests/platform/vitals.test.ts 'posts to the endpoint, and names the root path for a document without a location' checks the report's route.path.
  const path = target.location?.pathname ?? '/';
  const pending = new Map<VitalName, ReportedVital>();
  let sent = 0;
  for (const observe of observers) {
    observe((metric) => {
      const vital = vitalOf(metric);
      if (vital) pending.set(vital.name, vital);
    });
  }
  // After web-vitals' own listeners (on window, capturing), which report what the hiding finalised.
  target.addEventListener('visibilitychange', () => {
    if (target.visibilityState !== 'hidden' || pending.size === 0 || sent >= config.maxPerPage) return;
    sent += 1;
    const report = buildReport({ kind: 'vitals', vitals: [...pending.values()] }, first, {
      buildId: config.buildId,
      path,
      now: Date.now(),
      maxBytes: config.maxBytes,
    });
    pending.clear();
    send(report, config.endpoint);
  });
}

export function startVitals(config: ReportsConfig, log: EventLogView): void {
  if (isbot(navigator.userAgent)) return;
  collectVitals(config, log, [onLCP, onINP, onCLS, onTTFB] as Observe[]);
}
