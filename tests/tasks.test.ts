// afterInput and afterPaint (src/platform/tasks.ts): a link's click, a command from a control and a toast reach their
// machine in a task after the input's own (user-visible priority), a back/forward step and the colour switch's
// freeze in a later task of low priority, where the browser can post one (scheduler.postTask, Chromium), so what
// the input asked for is painted first; elsewhere (Safari) the task runs at once, as it did before. Deferred tasks
// keep their order across priorities. The scheduler is a fake that holds the tasks it is given.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Tasks = typeof import('../src/platform/tasks');
let afterInput: Tasks['afterInput'];
let afterPaint: Tasks['afterPaint'];

// A fresh copy per test: no deferred task is left over from the last one, and the helpers (constants made while the
// module loads) are made inside the test, where Stryker credits their code to it.
beforeEach(async () => {
  vi.resetModules();
  ({ afterInput, afterPaint } = await import('../src/platform/tasks'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A `scheduler.postTask` that keeps each task, with the priority asked for, until the test runs it. */
function holdPostedTasks() {
  const posted: { task: () => void; priority: string }[] = [];
  vi.stubGlobal('scheduler', {
    postTask(task: () => void, options: { priority: string }) {
      posted.push({ task, priority: options.priority });
    },
  });
  return posted;
}

describe('afterPaint', () => {
  it('posts the task at background priority, so it waits for the paint, where the browser can', () => {
    const posted = holdPostedTasks();
    const task = vi.fn();
    afterPaint(task);
    expect(task).not.toHaveBeenCalled();
    expect(posted.map(({ priority }) => priority)).toEqual(['background']);
    posted[0]?.task();
    expect(task).toHaveBeenCalledOnce();
  });

  it('runs the task at once in a browser without scheduler.postTask', () => {
    vi.stubGlobal('scheduler', undefined);
    const task = vi.fn();
    afterPaint(task);
    expect(task).toHaveBeenCalledOnce();
  });

  it('runs the task at once when a scheduler exists but cannot post tasks', () => {
    vi.stubGlobal('scheduler', {});
    const task = vi.fn();
    afterPaint(task);
    expect(task).toHaveBeenCalledOnce();
  });
});

describe('afterInput', () => {
  it('posts the task at user-visible priority, after the input being handled', () => {
    const posted = holdPostedTasks();
    const task = vi.fn();
    afterInput(task);
    expect(task).not.toHaveBeenCalled();
    expect(posted.map(({ priority }) => priority)).toEqual(['user-visible']);
    posted[0]?.task();
    expect(task).toHaveBeenCalledOnce();
  });

  it('runs the task at once in a browser without scheduler.postTask', () => {
    vi.stubGlobal('scheduler', undefined);
    const task = vi.fn();
    afterInput(task);
    expect(task).toHaveBeenCalledOnce();
  });
});

describe('deferred tasks', () => {
  it('run in the order they were deferred: a low-priority step is not overtaken by a later click', () => {
    const posted = holdPostedTasks();
    const order: string[] = [];
    afterPaint(() => order.push('back'));
    afterInput(() => order.push('click'));
    // The browser runs the user-visible task first; it runs the step deferred before it, then its own.
    posted[1]?.task();
    expect(order).toEqual(['back', 'click']);
    // The background task finds its work done and does nothing.
    posted[0]?.task();
    expect(order).toEqual(['back', 'click']);
  });

  it('a posted task runs no task deferred after its own', () => {
    const posted = holdPostedTasks();
    const order: string[] = [];
    afterInput(() => order.push('first'));
    afterInput(() => order.push('second'));
    posted[0]?.task();
    expect(order).toEqual(['first']);
    posted[1]?.task();
    expect(order).toEqual(['first', 'second']);
  });

  it('the same function deferred twice runs twice', () => {
    const posted = holdPostedTasks();
    const task = vi.fn();
    afterInput(task);
    afterInput(task);
    posted[0]?.task();
    posted[1]?.task();
    expect(task).toHaveBeenCalledTimes(2);
  });
});
