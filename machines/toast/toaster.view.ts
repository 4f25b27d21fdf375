/**
 * What the toast viewport needs from the toaster machine, as a pure function of its snapshot (Zag's
 * `connect()` idea): answers from tags and context, never from state names; and its commands.
 */
import type { SnapshotFrom } from 'xstate';
import type { ToastEntry } from './toaster.entries';
import type { ToasterEvent, ToasterMachine } from './toaster.machine';
import type { PauseReason } from './toaster.utils';

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

export interface ToasterCommands {
  /** The viewport holds the timers (pointer over it, focus inside, ...). */
  pause(reason: PauseReason): void;
  resume(reason: PauseReason): void;
}

/** The viewport's commands. Each is sent only when it changes something, so pointer moves do not flood it. */
export function toasterCommands(
  toaster:
    | { getSnapshot(): { can(event: ToasterEvent): boolean }; send(event: ToasterEvent): void }
    | undefined,
): ToasterCommands {
  const report = (event: ToasterEvent) => {
    if (toaster?.getSnapshot().can(event)) toaster.send(event);
  };
  return {
    pause: (reason) => report({ type: 'viewport.pause', reason }),
    resume: (reason) => report({ type: 'viewport.resume', reason }),
  };
}
