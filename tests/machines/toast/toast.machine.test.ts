import { describe, expect, it } from 'vitest';
import { type AnyEventObject, type AnyMachineSnapshot, createActor, SimulatedClock } from 'xstate';
import {
  type ToastContext,
  type ToastInput,
  type ToastReport,
  toastMachine,
} from '../../../machines/toast/toast.machine';
import { toastAnnouncement, toastView } from '../../../machines/toast/toast.view';
import {
  contentOf,
  isDeltaInDirection,
  LONGEST_TIMER_MS,
  type SwipeSettings,
} from '../../../machines/toast/toaster.utils';
import { registerPathTests } from '../../support/pathPromises';
import { leafState } from '../../support/pathTesting';
import { toastPromises, toastTransitions } from './toast.promises';

const swipe: SwipeSettings = { direction: 'right', thresholdPx: 50, startTouchPx: 10, startPx: 2 };

function inputWith(overrides: Partial<ToastInput> = {}): ToastInput {
  return {
    id: 't1',
    content: contentOf({ title: 'Saved', description: 'Your changes are safe.' }),
    duration: 5000,
    held: false,
    removeDelayMs: 200,
    swipe,
    now: () => 0,
    ...overrides,
  };
}

/** A toast on a simulated clock, with `now` reading the same clock, and its reports recorded. */
function startToast(overrides: Partial<ToastInput> = {}) {
  const clock = new SimulatedClock();
  const reports: ToastReport[] = [];
  const logic = toastMachine.provide({
    actions: {
      reportClosed: ({ context }) => reports.push({ type: 'toast.closed', id: context.id }),
      reportRemoved: ({ context }) => reports.push({ type: 'toast.removed', id: context.id }),
    },
  });
  const actor = createActor(logic, { clock, input: inputWith({ now: () => clock.now(), ...overrides }) });
  actor.start();
  const state = () => leafState(actor.getSnapshot().value);
  const context = (): ToastContext => actor.getSnapshot().context;
  return { actor, clock, reports, state, context };
}

describe('toast machine: timer', () => {
  it('closes after its duration, to the millisecond, and is removed 200 ms later', () => {
    const toast = startToast();
    toast.clock.increment(4999);
    expect(toast.state()).toBe('open');
    toast.clock.increment(1);
    expect(toast.state()).toBe('closed');
    expect(toast.reports).toEqual([{ type: 'toast.closed', id: 't1' }]);
    toast.clock.increment(199);
    expect(toast.state()).toBe('closed');
    toast.clock.increment(1);
    expect(toast.state()).toBe('removed');
    expect(toast.actor.getSnapshot().status).toBe('done');
    expect(toast.reports.at(-1)).toEqual({ type: 'toast.removed', id: 't1' });
  });

  it('holds the timer while paused and resumes with the remaining time, not a fresh duration', () => {
    const toast = startToast();
    toast.clock.increment(2000);
    toast.actor.send({ type: 'toast.pause' });
    expect(toast.state()).toBe('paused');
    expect(toast.context().remaining).toBe(3000);
    toast.clock.increment(60_000);
    expect(toast.state()).toBe('paused');
    toast.actor.send({ type: 'toast.resume' });
    toast.clock.increment(2999);
    expect(toast.state()).toBe('open');
    toast.clock.increment(1);
    expect(toast.state()).toBe('closed');
  });

  it('never keeps a negative remaining time: a pause after the time ran out but before its timer fired closes at once on resume', () => {
    // A background tab's timers run late: the page's clock (`now`) can pass the toast's end before its timer fires.
    const page = { ms: 0 };
    const toast = startToast({ now: () => page.ms });
    page.ms = 6000;
    toast.actor.send({ type: 'toast.pause' });
    expect(toast.state()).toBe('paused');
    expect(toast.context().remaining).toBe(0);
    toast.actor.send({ type: 'toast.resume' });
    toast.clock.increment(0);
    expect(toast.state()).toBe('closed');
  });

  it('keeps the remaining time exact over many pauses', () => {
    const toast = startToast();
    for (let i = 0; i < 4; i += 1) {
      toast.clock.increment(1000);
      toast.actor.send({ type: 'toast.pause' });
      toast.clock.increment(777);
      toast.actor.send({ type: 'toast.resume' });
    }
    expect(toast.context().remaining).toBe(1000);
    toast.clock.increment(999);
    expect(toast.state()).toBe('open');
    toast.clock.increment(1);
    expect(toast.state()).toBe('closed');
  });

  it('starts paused, with its whole duration, when the viewport is paused as it appears', () => {
    const toast = startToast({ held: true });
    expect(toast.state()).toBe('paused');
    toast.clock.increment(10_000);
    expect(toast.context().remaining).toBe(5000);
    toast.actor.send({ type: 'toast.resume' });
    toast.clock.increment(5000);
    expect(toast.state()).toBe('closed');
  });

  it('never closes by itself with an infinite duration (or none at all)', () => {
    for (const duration of [Number.POSITIVE_INFINITY, 0, -1]) {
      const toast = startToast({ duration });
      toast.clock.increment(LONGEST_TIMER_MS + 1);
      expect(toast.state(), `duration ${duration}`).toBe('open');
      toast.actor.send({ type: 'toast.close' });
      expect(toast.state()).toBe('closed');
    }
  });

  it('restarts from the new duration when an update changes it, and not otherwise', () => {
    const toast = startToast();
    toast.clock.increment(4000);
    toast.actor.send({ type: 'toast.update', patch: { title: 'Renamed' } });
    expect(toast.context().content.title).toBe('Renamed');
    expect(toast.context().content.description).toBe('Your changes are safe.');
    toast.actor.send({ type: 'toast.update', patch: { duration: 3000 } });
    toast.clock.increment(2999);
    expect(toast.state()).toBe('open');
    toast.clock.increment(1);
    expect(toast.state()).toBe('closed');
  });

  it('ignores updates and pauses once closed', () => {
    const toast = startToast();
    toast.actor.send({ type: 'toast.close' });
    toast.actor.send({ type: 'toast.update', patch: { title: 'Late' } });
    toast.actor.send({ type: 'toast.pause' });
    expect(toast.state()).toBe('closed');
    expect(toast.context().content.title).toBe('Saved');
  });
});

describe('toast machine: swipe', () => {
  const down = (x: number, pointerType = 'mouse') =>
    ({ type: 'toast.swipeStart', x, y: 100, pointerType }) as const;
  const move = (x: number, y = 100) => ({ type: 'toast.swipeMove', x, y }) as const;

  it('starts a mouse swipe after 2 px, pauses the timer, and closes when released beyond 50 px', () => {
    const toast = startToast();
    toast.clock.increment(1000);
    toast.actor.send(down(100));
    toast.actor.send(move(102));
    expect(toast.state()).toBe('open');
    toast.actor.send(move(103));
    expect(toast.state()).toBe('swiping');
    expect(toast.context().remaining).toBe(4000);
    toast.clock.increment(10_000);
    toast.actor.send(move(151));
    expect(toast.context().delta).toEqual({ x: 51, y: 0 });
    toast.actor.send({ type: 'toast.swipeEnd' });
    expect(toast.state()).toBe('closed');
    expect(toastView(toast.actor.getSnapshot()).swipe).toBe('end');
  });

  it('snaps back below the threshold and carries on with the remaining time', () => {
    const toast = startToast();
    toast.clock.increment(1000);
    toast.actor.send(down(100));
    toast.actor.send(move(150));
    toast.actor.send({ type: 'toast.swipeEnd' });
    expect(toast.state()).toBe('open');
    expect(toast.context().delta).toEqual({ x: 0, y: 0 });
    expect(toastView(toast.actor.getSnapshot()).swipe).toBe('cancel');
    toast.clock.increment(3999);
    expect(toast.state()).toBe('open');
    toast.clock.increment(1);
    expect(toast.state()).toBe('closed');
  });

  it('needs 10 px before a touch drag counts', () => {
    const toast = startToast();
    toast.actor.send(down(100, 'touch'));
    toast.actor.send(move(110));
    expect(toast.state()).toBe('open');
    toast.actor.send(move(111));
    expect(toast.state()).toBe('swiping');
  });

  it('ignores a drag that starts the wrong way, and only follows the swipe direction', () => {
    const toast = startToast();
    toast.actor.send(down(100));
    toast.actor.send(move(90));
    toast.actor.send(move(200));
    expect(toast.state()).toBe('open');
    // Across the swipe axis counts as the wrong way too.
    toast.actor.send(down(100));
    toast.actor.send(move(100, 300));
    toast.actor.send(move(200, 100));
    expect(toast.state()).toBe('open');
    // Once swiping, the toast follows only the swipe direction: the cross axis and the way back are clamped.
    toast.actor.send(down(100));
    toast.actor.send(move(140, 250));
    expect(toast.state()).toBe('swiping');
    expect(toast.context().delta).toEqual({ x: 40, y: 0 });
    toast.actor.send(move(20, 100));
    expect(toast.context().delta).toEqual({ x: 0, y: 0 });
  });

  it('goes back to open when the pointer is cancelled or lost, and to paused if the viewport is paused', () => {
    for (const end of [{ type: 'toast.swipeCancel' }, { type: 'toast.pointerLost' }] as const) {
      const toast = startToast();
      toast.actor.send(down(100));
      toast.actor.send(move(130));
      expect(toast.state()).toBe('swiping');
      toast.actor.send(end);
      expect(toast.state(), end.type).toBe('open');
    }
    const toast = startToast();
    toast.actor.send(down(100));
    toast.actor.send(move(130));
    toast.actor.send({ type: 'toast.pause' });
    toast.actor.send({ type: 'toast.pointerLost' });
    expect(toast.state()).toBe('paused');
    toast.actor.send({ type: 'toast.resume' });
    expect(toast.state()).toBe('open');
  });

  it('supports every direction', () => {
    const cases = [
      { direction: 'left', to: { x: 40, y: 100 } },
      { direction: 'up', to: { x: 100, y: 40 } },
      { direction: 'down', to: { x: 100, y: 160 } },
    ] as const;
    for (const { direction, to } of cases) {
      const toast = startToast({ swipe: { ...swipe, direction } });
      toast.actor.send(down(100));
      toast.actor.send(move(to.x, to.y));
      toast.actor.send({ type: 'toast.swipeEnd' });
      expect(toast.state(), direction).toBe('closed');
    }
  });
});

describe('toast view', () => {
  it('says it is swiping only while the toast is being swiped', () => {
    const toast = startToast();
    expect(toastView(toast.actor.getSnapshot()).swiping).toBe(false);
    toast.actor.send({ type: 'toast.swipeStart', x: 100, y: 100, pointerType: 'mouse' });
    toast.actor.send({ type: 'toast.swipeMove', x: 103, y: 100 });
    expect(toast.state()).toBe('swiping');
    expect(toastView(toast.actor.getSnapshot())).toMatchObject({ swiping: true, swipe: 'move' });
    toast.actor.send({ type: 'toast.swipeEnd' });
    expect(toastView(toast.actor.getSnapshot()).swiping).toBe(false);
  });

  it('is announced in the live region of its own type while shown, and nowhere else', () => {
    const toast = startToast({
      content: contentOf({ title: 'Saved', description: 'Safe.', type: 'background' }),
    });
    expect(toastAnnouncement(toast.actor.getSnapshot(), 'background', 'Note:')).toBe('Note: Saved Safe.');
    expect(toastAnnouncement(toast.actor.getSnapshot(), 'foreground', 'Alert:')).toBeNull();
    toast.actor.send({ type: 'toast.close' });
    expect(toastAnnouncement(toast.actor.getSnapshot(), 'background', 'Note:')).toBeNull();
  });

  it('shows state, pause, swipe and a progress bar computed from the machine', () => {
    const toast = startToast();
    toast.clock.increment(1000);
    toast.actor.send({ type: 'toast.pause' });
    let view = toastView(toast.actor.getSnapshot());
    expect(view).toMatchObject({ state: 'open', paused: true, swipe: undefined, swipeDirection: 'right' });
    expect(view.progress).toMatchObject({ fraction: 0.8, runsForMs: null });
    toast.actor.send({ type: 'toast.resume' });
    view = toastView(toast.actor.getSnapshot());
    expect(view.progress).toMatchObject({ fraction: 0.8, runsForMs: 4000 });
    toast.actor.send({ type: 'toast.close' });
    view = toastView(toast.actor.getSnapshot());
    expect(view).toMatchObject({ state: 'closed', progress: null });
  });

  it('gives the element its data attributes from the same answers', () => {
    const toast = startToast();
    expect(toastView(toast.actor.getSnapshot()).rootAttributes).toEqual({
      'data-toast-id': 't1',
      'data-type': 'foreground',
      'data-state': 'open',
      'data-paused': undefined,
      'data-swipe': undefined,
      'data-swipe-direction': 'right',
    });
    toast.actor.send({ type: 'toast.pause' });
    toast.actor.send({ type: 'toast.close' });
    expect(toastView(toast.actor.getSnapshot()).rootAttributes).toMatchObject({
      'data-state': 'closed',
      'data-paused': undefined,
    });
  });

  it('has no progress bar for a toast that never closes by itself', () => {
    const toast = startToast({ duration: Number.POSITIVE_INFINITY });
    expect(toastView(toast.actor.getSnapshot()).progress).toBeNull();
  });
});

describe('toast machine: generated paths', () => {
  // Reports go to the toaster, which the walk does not have.
  const inert = toastMachine.provide({ actions: { reportClosed: () => {}, reportRemoved: () => {} } });
  const input = inputWith();
  const events: AnyEventObject[] = [
    { type: 'toast.pause' },
    { type: 'toast.resume' },
    { type: 'toast.close' },
    { type: 'toast.update', patch: { title: 'Renamed' } },
    { type: 'toast.update', patch: { duration: 3000 } },
    { type: 'toast.update', patch: { duration: Number.POSITIVE_INFINITY } },
    { type: 'toast.swipeStart', x: 100, y: 100, pointerType: 'mouse' },
    { type: 'toast.swipeStart', x: 100, y: 100, pointerType: 'touch' },
    { type: 'toast.swipeMove', x: 105, y: 100 },
    { type: 'toast.swipeMove', x: 130, y: 100 },
    { type: 'toast.swipeMove', x: 180, y: 100 },
    { type: 'toast.swipeMove', x: 70, y: 100 },
    { type: 'toast.swipeEnd' },
    { type: 'toast.swipeCancel' },
    { type: 'toast.pointerLost' },
    { type: 'xstate.after.timeLeft.toast.shown.resting.open' },
    { type: 'xstate.after.removeDelay.toast.closed' },
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as ToastContext;
    return JSON.stringify([
      snapshot.value,
      context.held,
      context.gesture?.pointerType ?? null,
      isDeltaInDirection(context.delta, context.swipe.direction, context.swipe.thresholdPx),
      context.swipeOutcome,
      context.duration,
    ]);
  };
  // The walk keeps one path per edge key and event, so a second configuration reaches the context variants
  // the first does not: a toast that appears while the viewport is paused, a swipe released past a short threshold.
  const configurations: readonly { name: string; input: ToastInput }[] = [
    { name: 'defaults', input },
    { name: 'held, 4 px threshold', input: inputWith({ held: true, swipe: { ...swipe, thresholdPx: 4 } }) },
  ];

  registerPathTests({
    title: 'toast machine',
    machine: inert,
    promises: toastPromises,
    transitions: toastTransitions,
    minimumPaths: 30,
    variants: configurations.map((configuration) => ({
      name: configuration.name,
      input: configuration.input,
      events,
      serializeState,
      // One path per (state, held, armed gesture, event); the finer key only helps the walk reach states.
      edgeKey: (snapshot) => {
        const context = snapshot.context as ToastContext;
        return JSON.stringify([snapshot.value, context.held, context.gesture !== null]);
      },
      // The toast measures its remaining time on the replay's clock.
      onClock: (now) => ({ input: { ...configuration.input, now } }),
    })),
  });
});
