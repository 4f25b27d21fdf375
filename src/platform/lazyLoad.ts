/**
 * Code that only some visits run is left out of the first load and fetched when there is a sign it will be
 * needed, or when the browser has nothing better to do. Nothing here runs before the first page is on screen.
 */

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
