import { assign, type SnapshotFrom, sendParent, setup } from 'xstate';
import {
  isDeltaInDirection,
  isTimedDuration,
  LONGEST_TIMER_MS,
  movedBeyond,
  NO_DELTA,
  type Point,
  patchContent,
  type SwipeSettings,
  swipeDelta,
  swipeStartDistance,
  type ToastContent,
  type ToastPatch,
} from './toaster.utils';

export interface ToastInput {
  readonly id: string;
  readonly content: ToastContent;
  /** Milliseconds on screen, already defaulted by the toaster. */
  readonly duration: number;
  /** The viewport is paused as the toast appears: it starts with its timer stopped. */
  readonly held: boolean;
  readonly removeDelayMs: number;
  readonly swipe: SwipeSettings;
  /**
   * The clock for remaining-time arithmetic (the platform's `performance.now`, a simulated clock in tests).
   * XState owns the timer itself (the `timeLeft` delay); `now` only measures how much of it has run.
   */
  readonly now: () => number;
}

interface Gesture {
  readonly start: Point;
  readonly pointerType: string;
}

export interface ToastContext {
  readonly id: string;
  readonly content: ToastContent;
  readonly duration: number;
  /** What is left of the duration when the timer (re)starts. Updated each time it stops. */
  readonly remaining: number;
  /** `now()` when the timer last started; `null` while it is stopped. */
  readonly startedAt: number | null;
  /** The viewport holds every timer (pointer over it, focus in it, window blurred, page hidden). */
  readonly held: boolean;
  readonly removeDelayMs: number;
  readonly swipe: SwipeSettings;
  readonly now: () => number;
  /** A pointer went down on the toast and has not come up: it may become a swipe. */
  readonly gesture: Gesture | null;
  /** How far the toast follows the pointer, clamped to the swipe direction. */
  readonly delta: Point;
  /** How the last swipe ended, for the exit or snap-back animation. */
  readonly swipeOutcome: 'cancel' | 'end' | null;
}

export type ToastEvent =
  | { type: 'toast.update'; patch: ToastPatch }
  /** The close button, an action, Escape, `toast.dismiss`. */
  | { type: 'toast.close' }
  /** From the toaster: the viewport's pause set became non-empty, or empty again. */
  | { type: 'toast.pause' }
  | { type: 'toast.resume' }
  /** From the toast's element: pointer down (left button or touch), move, up, cancel, capture lost. */
  | { type: 'toast.swipeStart'; x: number; y: number; pointerType: string }
  | { type: 'toast.swipeMove'; x: number; y: number }
  | { type: 'toast.swipeEnd' }
  | { type: 'toast.swipeCancel' }
  | { type: 'toast.pointerLost' };

/** What a toast tells its toaster. */
export type ToastReport = { type: 'toast.closed'; id: string } | { type: 'toast.removed'; id: string };

function pointOf(event: ToastEvent): Point | null {
  // Stryker disable next-line ConditionalExpression: pointOf is called only by startsSwipe, abandonsSwipe and trackSwipe, which run only on `toast.swipeMove` transitions, so the event type check is always true.
  return event.type === 'toast.swipeMove' ? { x: event.x, y: event.y } : null;
}

function startsSwipe(context: ToastContext, event: ToastEvent): boolean {
  const point = pointOf(event);
  if (!context.gesture || !point) return false;
  const delta = swipeDelta(context.gesture.start, point, context.swipe.direction);
  return isDeltaInDirection(
    delta,
    context.swipe.direction,
    swipeStartDistance(context.gesture.pointerType, context.swipe),
  );
}

/**
 * One notification: on screen with its timer running (`open`), held by the viewport (`paused`), following
 * a finger or mouse (`swiping`), playing its exit animation (`closed`), and gone (`removed`, final).
 *
 * Events in: `toast.update`, `toast.close`, `toast.pause`/`toast.resume` (from the toaster),
 * `toast.swipeStart`/`swipeMove`/`swipeEnd`/`swipeCancel`/`pointerLost` (from the toast's element).
 * Needs: input (content, duration, whether the viewport is paused, removal delay, swipe settings, `now`).
 * Nothing to provide: its only effects are its reports to the parent (`toast.closed`, `toast.removed`).
 * Tags out: `shown` (open, paused or swiping), `held` (the timer is stopped while shown), `counting` (the
 * timer runs), `swiping`, `leaving` (closed, waiting for removal).
 */
export const toastMachine = setup({
  // Stryker disable next-line ObjectLiteral: `types` only declares the context, event and input types for TypeScript; XState never reads it at run time, so an empty object changes nothing.
  types: {
    context: {} as ToastContext,
    events: {} as ToastEvent,
    input: {} as ToastInput,
  },
  actions: {
    startCountdown: assign({ startedAt: ({ context }) => context.now() }),
    stopCountdown: assign(({ context }) =>
      // Stryker disable next-line ConditionalExpression: stopCountdown is only the exit action of `open`, whose entry action startCountdown has always set `startedAt` to a number, so it is never null here.
      context.startedAt === null
        ? {}
        : {
            remaining: Math.max(0, context.remaining - (context.now() - context.startedAt)),
            startedAt: null,
          },
    ),
    hold: assign({ held: true }),
    release: assign({ held: false }),
    applyUpdate: assign(({ context, event }) => {
      // Stryker disable next-line ConditionalExpression: applyUpdate is only an action of `toast.update` transitions, so the event type check is always true (it narrows the type for `event.patch`).
      if (event.type !== 'toast.update') return {};
      const { duration } = event.patch;
      return {
        content: patchContent(context.content, event.patch),
        ...(duration !== undefined && duration !== context.duration ? { duration, remaining: duration } : {}),
      };
    }),
    armGesture: assign(({ event }) =>
      // Stryker disable next-line ConditionalExpression: armGesture is only the action of the `toast.swipeStart` transition, so the event type check is always true.
      event.type === 'toast.swipeStart'
        ? { gesture: { start: { x: event.x, y: event.y }, pointerType: event.pointerType } }
        : {},
    ),
    trackSwipe: assign(({ context, event }) => {
      const point = pointOf(event);
      // Stryker disable next-line ConditionalExpression: trackSwipe runs only on `toast.swipeMove` (so `point` is set), in `resting` behind startsSwipe (which needs a gesture) and in `swiping` (entered only with a gesture, which stays until it is left), so this return is never taken.
      // Stryker disable next-line LogicalOperator: trackSwipe always has both a point (it runs only on `toast.swipeMove`) and a gesture (behind startsSwipe, or in `swiping`, which keeps its gesture), so both conditions are always false and `&&` returns the same as `||`.
      if (!context.gesture || !point) return {};
      return { delta: swipeDelta(context.gesture.start, point, context.swipe.direction) };
    }),
    disarmGesture: assign({ gesture: null }),
    snapBack: assign({ gesture: null, delta: NO_DELTA, swipeOutcome: 'cancel' as const }),
    finishSwipe: assign({ gesture: null, swipeOutcome: 'end' as const }),
    reportClosed: sendParent(({ context }): ToastReport => ({ type: 'toast.closed', id: context.id })),
    reportRemoved: sendParent(({ context }): ToastReport => ({ type: 'toast.removed', id: context.id })),
  },
  guards: {
    isHeld: ({ context }) => context.held,
    isTimed: ({ context }) => isTimedDuration(context.duration),
    changesDuration: ({ context, event }) =>
      // Stryker disable next-line ConditionalExpression: changesDuration guards only the `toast.update` transition of `open`, so the event type check is always true (it narrows the type for `event.patch`).
      event.type === 'toast.update' &&
      event.patch.duration !== undefined &&
      event.patch.duration !== context.duration,
    startsSwipe: ({ context, event }) => startsSwipe(context, event),
    abandonsSwipe: ({ context, event }) => {
      const point = pointOf(event);
      // Stryker disable next-line BooleanLiteral: `point` is always set on `toast.swipeMove`; without a gesture the mutant takes the `abandonsSwipe` branch, whose disarmGesture sets `gesture` to the null it already is, so the context is unchanged.
      if (!context.gesture || !point) return false;
      return movedBeyond(
        context.gesture.start,
        point,
        swipeStartDistance(context.gesture.pointerType, context.swipe),
      );
    },
    isBeyondThreshold: ({ context }) =>
      isDeltaInDirection(context.delta, context.swipe.direction, context.swipe.thresholdPx),
  },
  delays: {
    // A toast that never closes by itself still gets a (harmless) timer: `isTimed` stops it from acting.
    timeLeft: ({ context }) => Math.min(context.remaining, LONGEST_TIMER_MS),
    removeDelay: ({ context }) => context.removeDelayMs,
  },
}).createMachine({
  id: 'toast',
  context: ({ input }) => ({
    id: input.id,
    content: input.content,
    duration: input.duration,
    remaining: input.duration,
    startedAt: null,
    held: input.held,
    removeDelayMs: input.removeDelayMs,
    swipe: input.swipe,
    now: input.now,
    gesture: null,
    delta: NO_DELTA,
    swipeOutcome: null,
  }),
  initial: 'shown',
  states: {
    shown: {
      tags: ['shown'],
      initial: 'resting',
      on: {
        'toast.update': { actions: 'applyUpdate' },
        'toast.close': { target: 'closed' },
      },
      states: {
        /** On screen, not following a pointer: a pointer that goes down may start a swipe. */
        resting: {
          initial: 'open',
          on: {
            'toast.swipeStart': { actions: 'armGesture' },
            'toast.swipeMove': [
              { guard: 'startsSwipe', target: 'swiping', actions: 'trackSwipe' },
              { guard: 'abandonsSwipe', actions: 'disarmGesture' },
            ],
            'toast.swipeEnd': { actions: 'disarmGesture' },
            'toast.swipeCancel': { actions: 'disarmGesture' },
          },
          states: {
            open: {
              tags: ['counting'],
              // Opening while the viewport is paused (at first, or when a swipe snaps back) means paused.
              always: { guard: 'isHeld', target: 'paused' },
              entry: 'startCountdown',
              exit: 'stopCountdown',
              after: { timeLeft: { guard: 'isTimed', target: '#toast.closed' } },
              on: {
                'toast.pause': { target: 'paused', actions: 'hold' },
                // A new duration starts the timer again from the full new duration, as the spec's system does.
                'toast.update': {
                  guard: 'changesDuration',
                  target: 'open',
                  reenter: true,
                  actions: 'applyUpdate',
                },
              },
            },
            paused: {
              tags: ['held'],
              on: { 'toast.resume': { target: 'open', actions: 'release' } },
            },
          },
        },
        swiping: {
          tags: ['held', 'swiping'],
          on: {
            'toast.swipeMove': { actions: 'trackSwipe' },
            'toast.swipeEnd': [
              { guard: 'isBeyondThreshold', target: '#toast.closed', actions: 'finishSwipe' },
              { target: 'resting.open', actions: 'snapBack' },
            ],
            // Whatever takes the pointer away, the toast goes back: nothing stays stuck half-swiped.
            'toast.swipeCancel': { target: 'resting.open', actions: 'snapBack' },
            'toast.pointerLost': { target: 'resting.open', actions: 'snapBack' },
            'toast.pause': { actions: 'hold' },
            'toast.resume': { actions: 'release' },
            'toast.close': { target: '#toast.closed', actions: 'disarmGesture' },
          },
        },
      },
    },
    closed: {
      tags: ['leaving'],
      entry: 'reportClosed',
      after: { removeDelay: 'removed' },
    },
    removed: {
      type: 'final',
      entry: 'reportRemoved',
    },
  },
});

export type ToastMachine = typeof toastMachine;
export type ToastSnapshot = SnapshotFrom<ToastMachine>;
