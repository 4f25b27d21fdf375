// afterPaint (src/platform/tasks.ts): the colour switch lifts its transition freeze in a later task of low priority
// where the browser can post one (scheduler.postTask, Chromium), so the new colours are painted first; elsewhere
// (Safari) the task runs at once, as it did before. The scheduler is a fake that holds the tasks it is given.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPaint } from '../src/platform/tasks';

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
