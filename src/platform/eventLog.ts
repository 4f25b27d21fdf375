/**
 * The app actor's recent history, for error reports a developer can replay (`npm run replay`). An inspection
 * observer keeps the last events the root actor received from outside itself (the view, its children, its
 * effects, its own timers) in a ring buffer, and its latest snapshot. Nothing is scrubbed or sent from here:
 * this module is in the first load and stays small; the reporter (./reporter.ts, with the scrubber) is
 * fetched only when there is something to send.
 */
import type { AnyEventObject, InspectionEvent, Observer } from 'xstate';
import type { ReportsConfig } from '../config';

/** What the reporter reads: the events in order received, how many fell out, the last snapshot. */
export interface EventLogView {
  readonly events: readonly AnyEventObject[];
  readonly dropped: number;
  readonly snapshot: ReportableSnapshot | undefined;
  readonly boot: { readonly path: string; readonly title: string | null } | null;
}

/** The parts of the app machine's snapshot a report reads. */
export interface ReportableSnapshot {
  readonly value: unknown;
  readonly context: {
    readonly current: { readonly route: string | null } | null;
    readonly error: {
      readonly statusCode: number;
      readonly statusMessage?: string;
      readonly message: string;
    } | null;
    readonly build: { readonly id: string };
  };
  hasTag(tag: string): boolean;
}

export type ReportCause =
  | { readonly kind: 'view'; readonly error: NonNullable<ReportableSnapshot['context']['error']> }
  | { readonly kind: 'uncaught' | 'startup'; readonly error: unknown };

export interface EventLog {
  readonly inspect: Observer<InspectionEvent>;
  /** The prerendered page the app booted on (the replay boots the same way). */
  setBoot(boot: EventLogView['boot']): void;
  /** A start-up failure: there may be no actor at all. */
  reportStartupFailure(error: unknown): void;
  view(): EventLogView;
}

type Send = (cause: ReportCause, log: EventLogView) => void;

/** Starts recording, and listens for uncaught errors and unhandled rejections from now on. */
export function startEventLog(config: ReportsConfig, target: Window = window): EventLog {
  const events: AnyEventObject[] = [];
  let dropped = 0;
  let rootId: string | undefined;
  let snapshot: ReportableSnapshot | undefined;
  let shownError: unknown = null;
  let boot: EventLogView['boot'] = null;
  let sent = 0;
  const view = (): EventLogView => ({ events: [...events], dropped, snapshot, boot });

  let reporter: Promise<Send> | undefined;
  const report = (cause: ReportCause) => {
    if (!config.enabled || sent >= config.maxPerPage) return;
    sent += 1;
    const log = view();
    reporter ??= import('./reporter').then((module) => module.createReporter(config));
    reporter.then(
      (send) => send(cause, log),
      () => {
        // A reporter that cannot even load has nowhere to report to; the next error tries again.
        reporter = undefined;
      },
    );
  };

  const inspect: Observer<InspectionEvent> = {
    next(inspection) {
      const { actorRef } = inspection;
      if (actorRef.sessionId !== inspection.rootId) return;
      if (inspection.type === '@xstate.actor' && rootId !== actorRef.sessionId) {
        // A new root (React's strict mode starts one twice in development): its history starts here.
        rootId = actorRef.sessionId;
        events.length = 0;
        dropped = 0;
        return;
      }
      if (inspection.type === '@xstate.event') {
        const { event, sourceRef } = inspection;
        // Events the machine raised itself are raised again by the replay; its timers are not (the replay's
        // clock fires them when it sees `xstate.after.*`), nor its start.
        const ownRaise =
          sourceRef?.sessionId === actorRef.sessionId && !event.type.startsWith('xstate.after.');
        if (ownRaise || event.type === 'xstate.init') return;
        events.push(event);
        if (events.length > config.maxEvents) {
          events.shift();
          dropped += 1;
        }
        return;
      }
      if (inspection.type === '@xstate.snapshot') {
        snapshot = inspection.snapshot as unknown as ReportableSnapshot;
        const error = snapshot.context?.error ?? null;
        if (error && error !== shownError && snapshot.hasTag?.('error')) {
          shownError = error;
          report({ kind: 'view', error });
        }
        if (!error) shownError = null;
      }
    },
  };

  // The same error can reach both a view and a listener (a rejection rethrown after start-up failed).
  const seen = new WeakSet<object>();
  const once = (error: unknown) => {
    if (typeof error !== 'object' || error === null) return true;
    if (seen.has(error)) return false;
    seen.add(error);
    return true;
  };
  target.addEventListener('error', (event) => {
    if (once(event.error ?? event)) report({ kind: 'uncaught', error: event.error ?? event.message });
  });
  target.addEventListener('unhandledrejection', (event) => {
    if (once(event.reason)) report({ kind: 'uncaught', error: event.reason });
  });

  return {
    inspect,
    setBoot: (value) => {
      boot = value;
    },
    reportStartupFailure: (error) => {
      if (once(error)) report({ kind: 'startup', error });
    },
    view,
  };
}
