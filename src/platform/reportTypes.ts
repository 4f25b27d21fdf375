/**
 * What the event log (./eventLog.ts, in the first load) and the lazily loaded reporter (./reporter.ts) agree on:
 * types only, so neither imports the other's module for them.
 */
import type { AnyEventObject } from 'xstate';

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
  | { readonly kind: 'uncaught'; readonly error: unknown };

/** Sends one report; made by ./reporter.ts, which keeps its own count and de-duplication. */
export type Send = (cause: ReportCause, log: EventLogView) => void;
