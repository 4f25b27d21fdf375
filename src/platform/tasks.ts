interface TaskScheduler {
  postTask?(task: () => void, options: { priority: 'background' }): unknown;
}

/**
 * Runs `task` in a later task of low priority, so that the browser can paint what is pending first (an input's
 * feedback): `scheduler.postTask` at background priority yields to rendering in Chromium, and unlike a timer or
 * `requestAnimationFrame` it is not held back by a paused page clock (Playwright's `page.clock`). Without it
 * (Safari) `task` runs at once, as it did before.
 */
export function afterPaint(task: () => void): void {
  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  if (scheduler?.postTask) scheduler.postTask(task, { priority: 'background' });
  else task();
}
