/**
 * Behaviour the mutation run showed untested in the toaster, its toasts and the toast view. The survivors that
 * no test can tell apart carry their reasons in the source, as `// Stryker disable next-line` comments.
 */
import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { type ToastInput, toastMachine } from '../../../machines/toast/toast.machine';
import { toastView } from '../../../machines/toast/toast.view';
import type { ToasterContext, ToasterEvent } from '../../../machines/toast/toaster.machine';
import { contentOf } from '../../../machines/toast/toaster.utils';
import { testSwipe, testToaster } from '../../support/toasterHarness';

/** A toaster on a simulated clock that records, for every snapshot it publishes, which toasts are open. */
function startToaster() {
  const { logic, clock } = testToaster();
  const actor = createActor(logic, { clock });
  const published: string[][] = [];
  actor.subscribe((snapshot) => {
    published.push(snapshot.context.entries.map((entry) => `${entry.id}${entry.open ? '' : '×'}`));
  });
  actor.start();
  const send = (event: ToasterEvent) => actor.send(event);
  const context = (): ToasterContext => actor.getSnapshot().context;
  const add = (id: string) => send({ type: 'toast.add', toast: { id, title: `Toast ${id}` } });
  /** What the snapshots published while `act` ran showed, in order. */
  const during = (act: () => void) => {
    const from = published.length;
    act();
    return published.slice(from);
  };
  return { actor, clock, send, context, add, during };
}

/** A toast on a simulated clock; its reports to the toaster go nowhere. */
function startToast(overrides: Partial<ToastInput> = {}) {
  const clock = new SimulatedClock();
  const logic = toastMachine.provide({ actions: { reportClosed: () => {}, reportRemoved: () => {} } });
  const input: ToastInput = {
    id: 't1',
    content: contentOf({ title: 'Saved' }),
    duration: 5000,
    held: false,
    removeDelayMs: 200,
    swipe: testSwipe,
    now: () => clock.now(),
    ...overrides,
  };
  const actor = createActor(logic, { clock, input }).start();
  const view = () => toastView(actor.getSnapshot());
  const closed = () => actor.getSnapshot().hasTag('leaving');
  return { actor, clock, view, closed };
}

describe('toaster machine: closing and removal', () => {
  it('shows a dismissed toast closed in the very snapshot that answers the dismiss', () => {
    const toaster = startToaster();
    toaster.add('a');
    toaster.add('b');
    expect(toaster.during(() => toaster.send({ type: 'toast.dismiss', id: 'a' }))[0]).toEqual(['a×', 'b']);
  });

  it('shows the toast Escape closes as closed at once, whether it has focus or is the newest', () => {
    const toaster = startToaster();
    for (const id of ['a', 'b', 'c']) toaster.add(id);
    expect(toaster.during(() => toaster.send({ type: 'viewport.escape', toastId: 'a' }))[0]).toEqual([
      'a×',
      'b',
      'c',
    ]);
    expect(toaster.during(() => toaster.send({ type: 'viewport.escape', toastId: null }))[0]).toEqual([
      'a×',
      'b',
      'c×',
    ]);
  });

  it('ignores a removal report for a toast it does not hold as closed, and keeps showing the open one', () => {
    const toaster = startToaster();
    toaster.add('a');
    toaster.send({ type: 'toast.removed', id: 'a' });
    toaster.send({ type: 'toast.removed', id: 'nope' });
    expect(toaster.actor.getSnapshot().hasTag('empty')).toBe(false);
    expect(toaster.context().entries.map((entry) => entry.id)).toEqual(['a']);
    // The real report, once the toast has closed and left, still empties the toaster.
    toaster.clock.increment(5000);
    toaster.clock.increment(200);
    expect(toaster.actor.getSnapshot().hasTag('empty')).toBe(true);
    expect(toaster.context().entries).toEqual([]);
  });
});

describe('toast machine: an update that repeats the duration', () => {
  it('neither restarts the running countdown nor its progress bar', () => {
    const toast = startToast();
    toast.clock.increment(4000);
    const before = toast.view().progress;
    toast.actor.send({ type: 'toast.update', patch: { duration: 5000 } });
    expect(toast.view().progress).toEqual(before);
    expect(toast.view().progress).toEqual({ fraction: 1, runsForMs: 5000, key: '0:5000' });
    toast.clock.increment(999);
    expect(toast.closed()).toBe(false);
    toast.clock.increment(1);
    expect(toast.closed()).toBe(true);
  });

  it('keeps what is left of a held timer instead of starting it over', () => {
    const toast = startToast();
    toast.clock.increment(1000);
    toast.actor.send({ type: 'toast.pause' });
    toast.actor.send({ type: 'toast.update', patch: { duration: 5000 } });
    expect(toast.actor.getSnapshot().context.remaining).toBe(4000);
    expect(toast.view().progress).toMatchObject({ fraction: 0.8 });
    toast.actor.send({ type: 'toast.resume' });
    toast.clock.increment(3999);
    expect(toast.closed()).toBe(false);
    toast.clock.increment(1);
    expect(toast.closed()).toBe(true);
  });
});

describe('toast view: swipe and progress', () => {
  it('reports a swipe in progress as `move`, on the view and on the element', () => {
    const toast = startToast();
    toast.actor.send({ type: 'toast.swipeStart', x: 100, y: 100, pointerType: 'mouse' });
    toast.actor.send({ type: 'toast.swipeMove', x: 130, y: 100 });
    expect(toast.actor.getSnapshot().hasTag('swiping')).toBe(true);
    expect(toast.view().swipe).toBe('move');
    expect(toast.view().rootAttributes['data-swipe']).toBe('move');
    expect(toast.view().paused).toBe(true);
  });

  it('keys the progress bar by when its timer last started, or `held`, and by the time that was left', () => {
    const toast = startToast();
    expect(toast.view().progress?.key).toBe('0:5000');
    toast.clock.increment(1000);
    toast.actor.send({ type: 'toast.pause' });
    expect(toast.view().progress?.key).toBe('held:4000');
    toast.clock.increment(2000);
    toast.actor.send({ type: 'toast.resume' });
    expect(toast.view().progress?.key).toBe('3000:4000');
  });
});
