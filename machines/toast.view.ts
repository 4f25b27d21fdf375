/**
 * What a toast's element needs from its machine, as a pure function of the snapshot (Zag's `connect()`
 * idea): answers from tags and context, never from state names.
 */
import type { ToastSnapshot } from './toast.machine';
import { isTimedDuration, type Point, type SwipeDirection, type ToastContent } from './toaster.utils';

/** What a toast's element shows, from its snapshot. */
export interface ToastView {
  readonly id: string;
  readonly state: 'open' | 'closed';
  readonly paused: boolean;
  readonly swipe: 'move' | 'cancel' | 'end' | undefined;
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
