// The imperative toast API (src/platform/toast.ts) as product code sees it: what each call sends to the
// toaster, that calls made while no toaster runs wait and arrive in order, and what the diagnostics count.
// The module keeps its connection and its waiting calls in module state, so every test loads a fresh copy.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { ToasterEvent } from '../../machines/toast/toaster.machine';
import { testToaster } from '../support/toasterHarness';

type ToastModule = typeof import('../../src/platform/toast');

let api: ToastModule;

beforeEach(async () => {
  vi.resetModules();
  api = await import('../../src/platform/toast');
});

/** A stand-in toaster connection that records what reaches it. */
function connect(toaster: Parameters<ToastModule['connectToastApi']>[1] = () => undefined) {
  const received: ToasterEvent[] = [];
  const disconnect = api.connectToastApi((event) => received.push(event), toaster);
  return { received, disconnect };
}

describe('toast API calls', () => {
  it('add sends the toast with the caller id, or a fresh distinct one, and returns that id', () => {
    const { received } = connect();
    const mine = api.toast.add({ id: 'saved', title: 'Saved' });
    const first = api.toast.add({ title: 'First' });
    const second = api.toast.add();
    expect(mine).toBe('saved');
    // Generated ids must never collide with each other, nor be empty (the view keys and finds toasts by id).
    expect(first).toMatch(/^toast-\d+$/);
    expect(second).toMatch(/^toast-\d+$/);
    expect(second).not.toBe(first);
    expect(received).toEqual([
      { type: 'toast.add', toast: { id: 'saved', title: 'Saved' } },
      { type: 'toast.add', toast: { id: first, title: 'First' } },
      { type: 'toast.add', toast: { id: second } },
    ]);
  });

  it('update, dismiss and clear send their events by id', () => {
    const { received } = connect();
    api.toast.update('saved', { description: 'All good', duration: 1000 });
    api.toast.dismiss('saved');
    api.toast.clear();
    expect(received).toEqual([
      { type: 'toast.update', id: 'saved', patch: { description: 'All good', duration: 1000 } },
      { type: 'toast.dismiss', id: 'saved' },
      { type: 'toast.clear' },
    ]);
  });

  it('refuses invalid options from untyped callers before anything is sent', () => {
    const { received } = connect();
    expect(() => api.toast.add({ type: 'urgent' as 'foreground' })).toThrow('Invalid prop `type`');
    expect(() => api.toast.update('saved', { duration: '5s' as unknown as number })).toThrow(
      'Invalid prop `duration`',
    );
    expect(received).toEqual([]);
  });
});

describe('toast API connection', () => {
  it('keeps calls made before a toaster connects and delivers them in order when one does', () => {
    const id = api.toast.add({ title: 'Early' });
    api.toast.update(id, { title: 'Still early' });
    api.toast.dismiss(id);
    api.toast.clear();
    const { received } = connect();
    expect(received).toEqual([
      { type: 'toast.add', toast: { id, title: 'Early' } },
      { type: 'toast.update', id, patch: { title: 'Still early' } },
      { type: 'toast.dismiss', id },
      { type: 'toast.clear' },
    ]);
    // Delivered once: the next toaster to connect does not get them again.
    connect().disconnect();
    const again = connect();
    expect(again.received).toEqual([]);
  });

  it('after a disconnect, calls wait for the next toaster instead of reaching the stopped one', () => {
    const old = connect();
    old.disconnect();
    api.toast.add({ id: 'late' });
    expect(old.received).toEqual([]);
    const next = connect();
    expect(next.received).toEqual([{ type: 'toast.add', toast: { id: 'late' } }]);
  });

  it('a late disconnect of a replaced toaster leaves the toaster that replaced it connected', () => {
    const old = connect();
    const current = connect();
    old.disconnect();
    api.toast.dismiss('a');
    expect(current.received).toEqual([{ type: 'toast.dismiss', id: 'a' }]);
    expect(old.received).toEqual([]);
  });
});

describe('toast API calls from an input', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reach the toaster in a task after the input’s own, in order, where the browser can post one', () => {
    const posted: (() => void)[] = [];
    vi.stubGlobal('scheduler', { postTask: (task: () => void) => posted.push(task) });
    const { received } = connect();
    const id = api.toast.add({ title: 'Saved' });
    api.toast.dismiss(id);
    // The id is the caller's at once; nothing has reached the toaster yet.
    expect(id).toMatch(/^toast-\d+$/);
    expect(received).toEqual([]);
    for (const task of posted) task();
    expect(received).toEqual([
      { type: 'toast.add', toast: { id, title: 'Saved' } },
      { type: 'toast.dismiss', id },
    ]);
  });
});

describe('toastDiagnostics', () => {
  it('is null while no toaster is connected, or while the connected one is not running', () => {
    expect(api.toastDiagnostics()).toBeNull();
    const { disconnect } = connect(() => undefined);
    expect(api.toastDiagnostics()).toBeNull();
    disconnect();
    expect(api.toastDiagnostics()).toBeNull();
  });

  it('counts the toast actors alive, the toasts shown and the toasts waiting', () => {
    const { logic, clock } = testToaster({ maxVisible: 2, durationMs: 1000, removeDelayMs: 200 });
    const toaster = createActor(logic, { clock }).start();
    connect(() => toaster);
    for (const id of ['a', 'b', 'c']) toaster.send({ type: 'toast.add', toast: { id } });
    // The toaster's own listeners are children too; only the toast actors count.
    expect(Object.keys(toaster.getSnapshot().children).length).toBeGreaterThan(2);
    expect(api.toastDiagnostics()).toEqual({ liveToastActors: 2, shown: 2, queued: 1 });
    toaster.send({ type: 'toast.dismiss', id: 'a' });
    // A closing toast is still shown, and its actor alive, until its exit is over.
    expect(api.toastDiagnostics()).toEqual({ liveToastActors: 2, shown: 2, queued: 1 });
    clock.increment(200);
    expect(api.toastDiagnostics()).toEqual({ liveToastActors: 2, shown: 2, queued: 0 });
    toaster.send({ type: 'toast.clear' });
    expect(api.toastDiagnostics()).toEqual({ liveToastActors: 0, shown: 0, queued: 0 });
    toaster.stop();
  });
});
