/**
 * What a toast's element needs from its machine, as a pure function of the snapshot (Zag's `connect()`
 * idea): answers from tags and context, never from state names; and what it may ask of the machine, as
 * named commands, so the element never assembles an event.
 */
import type { ToastEvent, ToastSnapshot } from './toast.machine';
import {
  announcementOf,
  isTimedDuration,
  type Point,
  type SwipeDirection,
  type ToastContent,
  type ToastType,
} from './toaster.utils';

/** What a toast's element shows, from its snapshot. */
export interface ToastView {
  readonly id: string;
  readonly state: 'open' | 'closed';
  readonly paused: boolean;
  readonly swipe: 'move' | 'cancel' | 'end' | undefined;
  /** A pointer drag has become a swipe: the element keeps the pointer even when it leaves the toast. */
  readonly swiping: boolean;
  readonly swipeDirection: SwipeDirection;
  readonly delta: Point;
  readonly content: ToastContent;
  /** The `data-*` attributes the toast's element spreads: styling and tests read the machine through them. */
  readonly rootAttributes: {
    readonly 'data-toast-id': string;
    readonly 'data-type': ToastContent['type'];
    readonly 'data-state': 'open' | 'closed';
    readonly 'data-paused': true | undefined;
    readonly 'data-swipe': 'move' | 'cancel' | 'end' | undefined;
    readonly 'data-swipe-direction': SwipeDirection;
  };
  /**
   * The progress bar, from the machine's own remaining time so it cannot drift: the fraction left, how
   * long it runs from there (`null` while held), and a key that changes each time the timer restarts.
   */
  readonly progress: {
    readonly fraction: number;
    readonly runsForMs: number | null;
    readonly key: string;
  } | null;
}

export function toastView(snapshot: ToastSnapshot): ToastView {
  const { context } = snapshot;
  const shown = snapshot.hasTag('shown');
  const timed = isTimedDuration(context.duration);
  const counting = snapshot.hasTag('counting');
  const state = shown ? 'open' : 'closed';
  const paused = snapshot.hasTag('held');
  const swipe = snapshot.hasTag('swiping') ? 'move' : (context.swipeOutcome ?? undefined);
  return {
    id: context.id,
    state,
    paused,
    swipe,
    swiping: snapshot.hasTag('swiping'),
    swipeDirection: context.swipe.direction,
    delta: context.delta,
    content: context.content,
    rootAttributes: {
      'data-toast-id': context.id,
      'data-type': context.content.type,
      'data-state': state,
      'data-paused': paused || undefined,
      'data-swipe': swipe,
      'data-swipe-direction': context.swipe.direction,
    },
    progress:
      shown && timed
        ? {
            fraction: Math.max(0, Math.min(1, context.remaining / context.duration)),
            runsForMs: counting ? context.remaining : null,
            key: `${context.startedAt ?? 'held'}:${context.remaining}`,
          }
        : null,
  };
}

/** What the live region of one politeness says for this toast: its announcement while shown, else nothing. */
export function toastAnnouncement(snapshot: ToastSnapshot, type: ToastType, label: string): string | null {
  return snapshot.hasTag('shown') && snapshot.context.content.type === type
    ? announcementOf(label, snapshot.context.content)
    : null;
}

export interface ToastCommands {
  dismiss(): void;
  swipeStart(point: Point, pointerType: string): void;
  swipeMove(point: Point): void;
  swipeEnd(): void;
  swipeCancel(): void;
  /** The pointer was taken away mid-gesture (capture lost): the swipe is cancelled. */
  pointerLost(): void;
}

/** The toast's commands, sent to its actor. */
export function toastCommands(toast: { send(event: ToastEvent): void }): ToastCommands {
  const send = (event: ToastEvent) => toast.send(event);
  return {
    dismiss: () => send({ type: 'toast.close' }),
    swipeStart: ({ x, y }, pointerType) => send({ type: 'toast.swipeStart', x, y, pointerType }),
    swipeMove: ({ x, y }) => send({ type: 'toast.swipeMove', x, y }),
    swipeEnd: () => send({ type: 'toast.swipeEnd' }),
    swipeCancel: () => send({ type: 'toast.swipeCancel' }),
    pointerLost: () => send({ type: 'toast.pointerLost' }),
  };
}
