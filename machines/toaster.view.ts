/**
 * What the toast viewport needs from the toaster machine, as a pure function of its snapshot (Zag's
 * `connect()` idea): answers from tags and context, never from state names.
 */
import type { SnapshotFrom } from 'xstate';
import type { ToastEntry } from './toaster.entries';
import type { ToasterMachine } from './toaster.machine';

export type ToasterSnapshot = SnapshotFrom<ToasterMachine>;

export interface ToasterView {
  /** The shown and closing toasts, oldest first (the same array while they do not change). */
  readonly entries: readonly ToastEntry[];
  /** The viewport holds every toast's timer (pointer, focus, a blurred window or a hidden page). */
  readonly paused: boolean;
  /** Nothing is shown. */
  readonly empty: boolean;
  /** The `data-*` attributes the viewport spreads: styling and tests read the machine through them. */
  readonly rootAttributes: {
    readonly 'data-paused': true | undefined;
    readonly 'data-empty': true | undefined;
  };
}

const NO_ENTRIES: readonly ToastEntry[] = [];

/** The viewport's view; `undefined` (the toaster has not started) reads as an empty, running toaster. */
export function toasterView(snapshot: ToasterSnapshot | undefined): ToasterView {
  const paused = snapshot?.hasTag('paused') ?? false;
  const empty = snapshot?.hasTag('empty') ?? true;
  return {
    entries: snapshot?.context.entries ?? NO_ENTRIES,
    paused,
    empty,
    rootAttributes: { 'data-paused': paused || undefined, 'data-empty': empty || undefined },
  };
}
