// afterInput and afterPaint (src/platform/tasks.ts): a link's click, a command from a control and a toast reach their
// machine in a task after the input's own (user-visible priority); a back/forward step and the colour switch's
// freeze in a task after the next frame (posted from its animation callback), or a background task 100 ms later
// where no frame comes; where the browser can post tasks (scheduler.postTask, Chromium), so what the input asked
// for is painted first; elsewhere (Safari) the task runs at once, as it did before. Deferred tasks keep their order
// across priorities. The scheduler and the animation frames are fakes that hold what they are given.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Tasks = typeof import('../../src/platform/tasks');
let afterInput: Tasks['afterInput'];
let afterPaint: Tasks['afterPaint'];

// A fresh copy per test: no deferred task is left over from the last one, and the helpers (constants made while the
// module loads) are made inside the test, where Stryker credits their code to it.
beforeEach(async () => {
  vi.resetModules();
  ({ afterInput, afterPaint } = await import('../../src/platform/tasks'));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A `scheduler.postTask` that keeps each task, with the priority and delay asked for, until the test runs it. */
function holdPostedTasks() {
  const posted: { task: () => void; priority: string; delay?: number }[] = [];
  vi.stubGlobal('scheduler', {
    postTask(task: () => void, options: { priority: string; delay?: number }) {
      posted.push({ task, ...options });
    },
  });
  return posted;
}

/** A `requestAnimationFrame` that keeps each callback until the test runs the frame. */
function holdFrames() {
  const callbacks: (() => void)[] = [];
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => callbacks.push(callback));
  const runFrame = () => {
    for (const callback of callbacks.splice(0)) callback();
  };
  return { runFrame, callbacks };
}

describe('afterPaint', () => {
  it('runs the task in a user-visible task posted from the next animation frame', () => {
    const posted = holdPostedTasks();
    const frames = holdFrames();
    const task = vi.fn();
    afterPaint(task);
    expect(frames.callbacks).toHaveLength(1);
    // Only the fallback is posted before the frame.
    expect(posted).toEqual([{ task: expect.any(Function), priority: 'background', delay: 100 }]);
    frames.runFrame();
    expect(task).not.toHaveBeenCalled();
    expect(posted[1]).toEqual({ task: expect.any(Function), priority: 'user-visible' });
    posted[1]?.task();
    expect(task).toHaveBeenCalledOnce();
    // The fallback finds it done.
    posted[0]?.task();
    expect(task).toHaveBeenCalledOnce();
  });

  it('runs the task from a background task 100 ms later when no frame comes (a hidden tab, a paused clock)', () => {
    const posted = holdPostedTasks();
    const frames = holdFrames();
    const task = vi.fn();
    afterPaint(task);
    expect(posted[0]).toMatchObject({ priority: 'background', delay: 100 });
    posted[0]?.task();
    expect(task).toHaveBeenCalledOnce();
    // The frame that comes at last finds it done.
    frames.runFrame();
    posted[1]?.task();
    expect(task).toHaveBeenCalledOnce();
  });

  it('uses the background task alone where there are no animation frames', () => {
    const posted = holdPostedTasks();
    vi.stubGlobal('requestAnimationFrame', undefined);
    const task = vi.fn();
    afterPaint(task);
    expect(posted).toHaveLength(1);
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
  it('run in the order they were deferred: a step after the next frame is not overtaken by a later click', () => {
    const posted = holdPostedTasks();
    const frames = holdFrames();
    const order: string[] = [];
    afterPaint(() => order.push('back'));
    afterInput(() => order.push('click'));
    // The browser runs the click's task before the frame; it runs the step deferred before it, then its own.
    expect(posted.map(({ priority }) => priority)).toEqual(['background', 'user-visible']);
    posted[1]?.task();
    expect(order).toEqual(['back', 'click']);
    // The frame's task and the fallback find their work done and do nothing.
    frames.runFrame();
    posted[2]?.task();
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

describe('nextTask', () => {
  /** Whether `promise` has settled once the microtasks queued so far have run. */
  async function settledNow(promise: Promise<unknown>): Promise<boolean> {
    let settled = false;
    void promise.then(() => {
      settled = true;
    });
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    return settled;
  }

  it('resolves with scheduler.yield() where the browser has it, and posts nothing', async () => {
    let release = () => {};
    const postTask = vi.fn();
    const yieldFn = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    vi.stubGlobal('scheduler', { yield: yieldFn, postTask });
    const { nextTask } = await import('../../src/platform/tasks');
    const next = nextTask();
    expect(yieldFn).toHaveBeenCalledTimes(1);
    expect(postTask).not.toHaveBeenCalled();
    expect(await settledNow(next)).toBe(false);
    release();
    expect(await settledNow(next)).toBe(true);
  });

  it('else resolves in a user-visible task posted with scheduler.postTask, not before it runs', async () => {
    const posted = holdPostedTasks();
    const { nextTask } = await import('../../src/platform/tasks');
    const next = nextTask();
    expect(posted.map(({ priority }) => priority)).toEqual(['user-visible']);
    expect(await settledNow(next)).toBe(false);
    posted[0]?.task();
    expect(await settledNow(next)).toBe(true);
  });

  it('else resolves after a timer (no scheduler at all)', async () => {
    vi.useFakeTimers();
    try {
      vi.stubGlobal('scheduler', undefined);
      const { nextTask } = await import('../../src/platform/tasks');
      const next = nextTask();
      expect(await settledNow(next)).toBe(false);
      await vi.advanceTimersByTimeAsync(0);
      expect(await settledNow(next)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
