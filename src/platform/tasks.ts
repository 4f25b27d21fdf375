interface TaskScheduler {
  postTask?(task: () => void, options: { priority: 'background' | 'user-visible'; delay?: number }): unknown;
}

/** Tasks deferred here and not run yet, oldest first. */
const pending: (() => void)[] = [];

/**
 * Defers `task`; `post` is given the function that runs it, to post as it likes (once or several times).
 * Deferred tasks run in the order they were deferred, whatever their priorities: whichever posted function
 * runs first runs every task deferred before its own too, and finds its own gone when it runs again. A Back
 * step (low priority) followed at once by a link's click (higher) reaches the app machine in that order.
 */
function defer(task: () => void, post: (scheduler: Required<TaskScheduler>, run: () => void) => void): void {
  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  if (!scheduler?.postTask) {
    task();
    return;
  }
  pending.push(task);
  // Already run by an earlier task: found nowhere, it runs nothing (`splice(0, 0)`).
  post(scheduler as Required<TaskScheduler>, () => {
    for (const run of pending.splice(0, pending.indexOf(task) + 1)) run();
  });
}

/**
 * Runs `task` in a task of its own after the input being handled (a click, a key), at the priority of work the
 * user waits for: Chromium renders the frame an input asked for before such a task, so the input's own task ends
 * at once and its feedback (the pressed link, the checked radio) is painted before the app's work and render.
 * `scheduler.postTask`, unlike a timer or `requestAnimationFrame`, is not held back by a paused page clock
 * (Playwright's `page.clock`). Without it (Safari) `task` runs at once.
 */
export const afterInput = (task: () => void): void =>
  defer(task, (scheduler, run) => scheduler.postTask(run, { priority: 'user-visible' }));

/**
 * Runs `task` now, after every task deferred before it and not run yet: a link's click followed at once by Back
 * reaches the app machine in that order, although Back's step is told without waiting.
 */
export const atOnce = (task: () => void): void => {
  for (const run of pending.splice(0)) run();
  task();
};

/** How long `afterPaint` waits for a frame that does not come (a hidden tab, a paused page clock). */
export const FRAME_WAIT_MS = 100;

/**
 * Runs `task` after the browser's next frame, when nothing asked for one (a back/forward step, the colour
 * switch's new colours): in a task posted from that frame's animation callback, so the frame is painted
 * first. (A background-priority task alone may run before that frame, with the whole page's render inside
 * it.) Where frames do not come, a background task `FRAME_WAIT_MS` later runs it instead; it
 * is `scheduler.postTask`'s own delay, which a paused page clock does not hold. Without `scheduler.postTask`
 * (Safari) `task` runs at once.
 */
export const afterPaint = (task: () => void): void =>
  defer(task, (scheduler, run) => {
    if (typeof requestAnimationFrame === 'function')
      requestAnimationFrame(() => scheduler.postTask(run, { priority: 'user-visible' }));
    scheduler.postTask(run, { priority: 'background', delay: FRAME_WAIT_MS });
  });

interface Yielding {
  yield?(): Promise<void>;
}

/**
 * Resolves in a task after this one, the browser free to paint and handle input in between: start-up work split
 * so (src/main.tsx) is several shorter tasks instead of one long one. `scheduler.yield()` where the browser has
 * it (its continuation goes before other tasks), else a `scheduler.postTask`; neither is held back by a paused
 * page clock (Playwright's `page.clock`). A timer only where neither exists.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: TaskScheduler & Yielding }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  const { postTask } = scheduler ?? {};
  if (postTask)
    return new Promise((resolve) => {
      postTask.call(scheduler, resolve, { priority: 'user-visible' });
    });
  return new Promise((resolve) => setTimeout(resolve, 0));
}
