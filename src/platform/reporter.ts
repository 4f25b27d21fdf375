/**
 * Builds and sends reports (POST /api/reports). Loaded only when there is something to send (./eventLog.ts).
 * Sent with `fetch` and `keepalive` (it outlives the page, as sendBeacon would, but can carry JSON) and
 * `credentials: 'omit'`: a report carries no cookie, and the server keeps no address.
 */
import type { ReportBody, ReportedVital } from '../../api/types';
import type { ReportsConfig } from '../config';
import { barePath, scrubEvent, scrubText } from './reportScrub';
import type { EventLogView, ReportCause, Send } from './reportTypes';

type Fetch = typeof fetch;

/** The report of `cause`, with as many of the newest events as fit under `maxBytes`. */
export function buildReport(
  cause: ReportCause | { readonly kind: 'vitals'; readonly vitals: readonly ReportedVital[] },
  log: EventLogView,
  options: {
    readonly buildId: string;
    readonly path: string;
    readonly now: number;
    readonly maxBytes: number;
    /** The route table's name for a path (passed in: importing the table here would split it off the entry). */
    readonly routeOf?: RouteOf;
  },
): ReportBody {
  const snapshot = log.snapshot;
  const base = {
    buildId: snapshot?.context.build.id ?? options.buildId,
    // The route of the path the visitor is on: a failed navigation commits no route to the context.
    route: {
      name: options.routeOf?.(barePath(options.path)) ?? snapshot?.context.current?.route ?? null,
      path: barePath(options.path),
    },
    state: (snapshot?.value ?? 'notStarted') as ReportBody['state'],
    boot: log.boot ? { path: barePath(log.boot.path), title: null } : null,
    time: Math.round(options.now),
  };
  const detail =
    cause.kind === 'vitals'
      ? { kind: 'vitals' as const, vitals: [...cause.vitals] }
      : { kind: 'error' as const, error: describeCause(cause, snapshot === undefined) };
  const events = log.events.map(scrubEvent);
  let dropped = log.dropped;
  let report: ReportBody = { ...base, ...detail, events, eventsDropped: dropped };
  // Oldest events go first until the report fits: a shorter history beats no report.
  while (events.length > 0 && new TextEncoder().encode(JSON.stringify(report)).length > options.maxBytes) {
    events.shift();
    dropped += 1;
    report = { ...base, ...detail, events, eventsDropped: dropped };
  }
  return report;
}

/** A failure before the app actor existed is a start-up failure (the static notice in index.html shows). */
function describeCause(cause: ReportCause, beforeStart: boolean): ReportBody['error'] & object {
  if (cause.kind === 'view') {
    const { error } = cause;
    return {
      name: scrubText(error.statusMessage ?? (error.statusCode === 404 ? 'Page Not Found' : 'Error')),
      message: scrubText(error.message),
      status: error.statusCode,
    };
  }
  const thrown = cause.error;
  const record = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as Record<string, unknown>;
  const status = Number.isInteger(record.statusCode) ? (record.statusCode as number) : 0;
  return {
    name: scrubText(
      `${beforeStart ? 'StartupFailure: ' : ''}${typeof record.name === 'string' ? record.name : typeof thrown}`,
      200,
    ),
    message: scrubText(typeof thrown === 'string' ? thrown : String(record.message ?? '')),
    status: status >= 100 && status <= 999 ? status : null,
  };
}

export function sendReport(report: ReportBody, endpoint: string, send: Fetch = fetch): void {
  send(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
    keepalive: true,
    credentials: 'omit',
  }).catch(() => {
    // A report that cannot be sent is dropped: reporting must never become an error of its own.
  });
}

export type RouteOf = (path: string) => string | null | undefined;

export function createReporter(config: ReportsConfig, routeOf?: RouteOf): Send {
  let sent = 0;
  // The same error can arrive twice (a start-up failure logged, then rethrown as a rejection).
  const seen = new WeakSet<object>();
  return (cause, log) => {
    const { error } = cause;
    if (typeof error === 'object' && error !== null) {
      if (seen.has(error)) return;
      seen.add(error);
    }
    if (sent >= config.maxPerPage) return;
    sent += 1;
    const report = buildReport(cause, log, {
      buildId: config.buildId,
      path: window.location.pathname,
      now: Date.now(),
      maxBytes: config.maxBytes,
      routeOf,
    });
    sendReport(report, config.endpoint);
  };
}
