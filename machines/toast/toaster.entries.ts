/**
 * The toaster's data: its context, events and entries, and the pure functions its machine
 * (toaster.machine.ts) uses to find, show and queue toasts.
 */
import type { ActorRefFrom } from 'xstate';
import type { ToastInput, ToastMachine, ToastReport } from './toast.machine';
import {
  contentOf,
  type PauseReason,
  type ToasterSettings,
  type ToastOptions,
  type ToastPatch,
} from './toaster.utils';

/**
 * What the toaster needs from the world: its settings (src/config.ts) and a clock for remaining-time
 * arithmetic. Both are fixed for the toaster's life, so they are given once, to `createToasterMachine`,
 * and travel to each toast through its input. Timers themselves are XState's `after` delays.
 */
export interface ToasterEnvironment {
  readonly settings: ToasterSettings;
  readonly now: () => number;
}

export type ToastRef = ActorRefFrom<ToastMachine>;

export interface ToastEntry {
  /** Unique for the toaster's life: what the view keys its elements by. */
  readonly key: string;
  readonly id: string;
  readonly ref: ToastRef;
  /** False from the moment the toast closes (or is told to) until its actor is removed. */
  readonly open: boolean;
}

/** A toast waiting for room: only its options, no actor, no timer. */
export interface QueuedToast {
  readonly id: string;
  readonly options: ToastPatch;
}

export interface ToasterContext {
  readonly settings: ToasterSettings;
  readonly now: () => number;
  /** The toasts on screen, oldest first; closed ones stay until their exit animation is over. */
  readonly entries: readonly ToastEntry[];
  readonly queue: readonly QueuedToast[];
  /** Why the viewport is paused, as a set (kept sorted). Timers run only while it is empty. */
  readonly pausedBy: readonly PauseReason[];
  /** Counts toasts, for the view's keys and the ids of toasts added without one. */
  readonly sequence: number;
}

export type ToasterEvent =
  /** The API (`toast.add` in src/platform/toast.ts, or any machine through `system.get('toaster')`). */
  | { type: 'toast.add'; toast: ToastOptions }
  | { type: 'toast.update'; id: string; patch: ToastPatch }
  | { type: 'toast.dismiss'; id: string }
  | { type: 'toast.clear' }
  /** From the viewport and the window: a reason to hold the timers appeared or went away. */
  | { type: 'viewport.pause'; reason: PauseReason }
  | { type: 'viewport.resume'; reason: PauseReason }
  /** Escape was pressed; `toastId` is the toast that has focus, if any. */
  | { type: 'viewport.escape'; toastId: string | null }
  | ToastReport;

export function idOf(event: ToasterEvent): string | undefined {
  switch (event.type) {
    case 'toast.add':
      return event.toast.id;
    case 'toast.update':
    case 'toast.dismiss':
      return event.id;
    // Stryker disable next-line ConditionalExpression: Without the `return undefined` the default case falls off the end of the function, which returns undefined just the same.
    default:
      return undefined;
  }
}

export function patchOf(event: ToasterEvent): ToastPatch {
  if (event.type === 'toast.update') return event.patch;
  // Stryker disable next-line ConditionalExpression: patchOf is called only by showToast, queueToast, updateShownToast and updateQueuedToast, which run only on `toast.add` or `toast.update` (handled on the line before), so the check is always true when reached.
  if (event.type === 'toast.add') {
    const { id: _id, ...patch } = event.toast;
    return patch;
  }
  return {};
}

export function openEntry(context: ToasterContext, id: string | null | undefined): ToastEntry | undefined {
  // Stryker disable next-line ConditionalExpression: Every entry has a string id, so for a null or undefined id the `find` matches nothing and returns undefined, as the short cut does.
  return id == null ? undefined : context.entries.find((entry) => entry.open && entry.id === id);
}

export function newestOpen(context: ToasterContext): ToastEntry | undefined {
  return context.entries.findLast((entry) => entry.open);
}

/** Closed toasts leave in the order they closed: the first closed entry with the id is the one removed. */
export function closedEntry(context: ToasterContext, id: string): ToastEntry | undefined {
  return context.entries.find((entry) => !entry.open && entry.id === id);
}

function toastInput(context: ToasterContext, id: string, options: ToastPatch): ToastInput {
  return {
    id,
    content: contentOf(options),
    duration: options.duration ?? context.settings.durationMs,
    held: context.pausedBy.length > 0,
    removeDelayMs: context.settings.removeDelayMs,
    swipe: context.settings.swipe,
    now: context.now,
  };
}

export type SpawnToast = (actorId: string, input: ToastInput) => ToastRef;

/**
 * The actor id for a new toast: the lowest slot no shown toast holds. Ids are reused on purpose. Each
 * toast that reaches `removed` sends the toaster `xstate.done.actor.<id>`, and XState memoises transition
 * candidates per state node and event type without ever evicting them: unique ids grew that memo by a few
 * entries per toast, forever (regression: 10,000 toasts left ~2 MB behind).
 */
function freeSlot(entries: readonly ToastEntry[]): string {
  const taken = new Set(entries.map((entry) => entry.ref.id));
  let slot = 0;
  while (taken.has(`toast#${slot}`)) slot += 1;
  return `toast#${slot}`;
}

/**
 * The id of a toast added without one: `auto-<n>` from the sequence on, skipping ids that a shown or waiting toast
 * already has (a caller may name its own toast `auto-2`), so two toasts never share an id.
 */
export function autoId(context: Pick<ToasterContext, 'entries' | 'queue'>, sequence: number): string {
  const taken = new Set([
    ...context.entries.map((entry) => entry.id),
    ...context.queue.map((queued) => queued.id),
  ]);
  let n = sequence;
  while (taken.has(`auto-${n}`)) n += 1;
  return `auto-${n}`;
}

/** Shows a toast: one actor per notification (an id may come back while its old toast is still leaving). */
export function show(
  context: ToasterContext,
  spawnToast: SpawnToast,
  id: string | undefined,
  options: ToastPatch,
): Pick<ToasterContext, 'entries' | 'sequence'> {
  const sequence = context.sequence + 1;
  const toastId = id ?? autoId(context, sequence);
  const ref = spawnToast(freeSlot(context.entries), toastInput(context, toastId, options));
  return { entries: [...context.entries, { key: String(sequence), id: toastId, ref, open: true }], sequence };
}
