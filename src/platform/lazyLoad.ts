/**
 * Code that only some visits run is left out of the first load and fetched when there is a sign it will be
 * needed, or when the browser has nothing better to do. Nothing here runs before the first page is on screen.
 */

/** What a pointer or keyboard user does before any tooltip, menu or hover card could matter. */
const INTENT_EVENTS = ['pointermove', 'pointerdown', 'keydown', 'focusin'] as const;

/**
 * Calls `load` once, on the first pointer movement, key press or focus change anywhere in the document.
 * A pointer has to cross the page to reach a control, and a keyboard user needs at least one more key press
 * to reach one, so the code has arrived long before a 700 ms hover delay runs out. Returns a cancel function.
 */
export function onFirstIntent(load: () => void): () => void {
  const fire = (event: Event) => {
    // A touch never opens a hover tooltip: a finger resting on a control is a press.
    if (event instanceof PointerEvent && event.type === 'pointermove' && event.pointerType === 'touch')
      return;
    cancel();
    load();
  };
  const cancel = () => {
    for (const type of INTENT_EVENTS) document.removeEventListener(type, fire, true);
  };
  for (const type of INTENT_EVENTS) document.addEventListener(type, fire, { capture: true, passive: true });
  return cancel;
}

/** Calls `run` when the main thread is idle (at most `timeoutMs` later); Safari lacks requestIdleCallback. */
export function whenIdle(run: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => run(), { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(run, 200);
  return () => clearTimeout(handle);
}

/** A dynamic import done once; a failure is forgotten so that the next need tries again. */
export function lazyModule<M>(importer: () => Promise<M>) {
  let module: M | undefined;
  let pending: Promise<M> | undefined;
  const listeners = new Set<() => void>();
  return {
    /** The module, once it has loaded. */
    get: (): M | undefined => module,
    load(): Promise<M> {
      pending ??= importer().then(
        (loaded) => {
          module = loaded;
          for (const listener of [...listeners]) listener();
          return loaded;
        },
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
