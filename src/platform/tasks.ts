interface TaskScheduler {
  postTask?(task: () => void, options: { priority: 'background' | 'user-visible' }): unknown;
}

/** Tasks deferred here and not run yet, oldest first. */
const pending: (() => void)[] = [];

/**
 * Posts `task` at `priority`. Deferred tasks run in the order they were deferred, whatever their priorities:
 * whichever posted task runs first runs every task deferred before its own too. A Back step (low priority)
 * followed at once by a link's click (higher) reaches the app machine in that order, not the other way round.
 */
function defer(task: () => void, priority: 'background' | 'user-visible'): void {
  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  if (!scheduler?.postTask) {
    task();
    return;
  }
  pending.push(task);
  // Already run by an earlier task: found nowhere, it runs nothing (`splice(0, 0)`).
  scheduler.postTask(
    () => {
      for (const run of pending.splice(0, pending.indexOf(task) + 1)) run();
    },
    { priority },
  );
}

/**
 * Runs `task` in a task of its own after the input being handled (a click, a key), at the priority of work the
 * user waits for: Chromium renders the frame an input asked for before such a task, so the input's own task ends
 * at once and its feedback (the pressed link, the checked radio) is painted before the app's work and render.
 * `scheduler.postTask`, unlike a timer or `requestAnimationFrame`, is not held back by a paused page clock
 * (Playwright's `page.clock`). Without it (Safari) `task` runs at once, as it did before.
 */
export const afterInput = (task: () => void): void => defer(task, 'user-visible');

/**
 * Runs `task` in a later task of low priority, so that the browser can paint what is pending first:
 * `scheduler.postTask` at background priority yields to rendering in Chromium even when no input asked for a
 * frame (a back/forward step, the colour switch's new colours). Without it (Safari) `task` runs at once.
 */
export const afterPaint = (task: () => void): void => defer(task, 'background');
