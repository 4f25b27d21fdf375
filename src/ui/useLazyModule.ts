import { useEffect, useSyncExternalStore } from 'react';
import type { lazyModule } from '../platform/lazyLoad';

/**
 * The module once loaded, asking for it when `wanted` is true. Unlike `React.lazy` and Suspense, nothing
 * waits on a timer: React throttles Suspense reveals with timeouts, which a paused page clock would hold
 * back forever, and a widget should appear the moment its code is there.
 */
export function useLazyModule<M>(module: ReturnType<typeof lazyModule<M>>, wanted: boolean): M | undefined {
  const loaded = useSyncExternalStore(module.subscribe, module.get, () => undefined);
  useEffect(() => {
    if (!wanted) return;
    module
      .load()
      .catch((error: unknown) =>
        console.error('[campaign-web] A part of the page could not be loaded.', error),
      );
  }, [module, wanted]);
  return loaded;
}
