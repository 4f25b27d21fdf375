import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the prerendered HTML and in the render that hydrates it, true from the commit after: a control that
 * needs the app renders `disabled` until then, so nothing looks ready that is not (React re-renders once the
 * client value differs from the server's; no effect, no flash).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
