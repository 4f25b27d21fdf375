import { type RefObject, useCallback, useEffect } from 'react';
import { config } from '../config';
import { useManifestSource, useSessionView } from '../platform/appActor';
import { whenIdle } from '../platform/lazyLoad';
import { browserCanPrefetch, type PrefetchOptions, pageDataCache, prefetchPath } from '../platform/prefetch';
import { afterInput } from '../platform/tasks';
import { useAfterFirstPage } from './useAfterFirstPage';

/** Links seen on screen, warmed once each while the browser is idle (code, and a payload if so configured). */
const warmed = new Set<string>();
let observer: IntersectionObserver | undefined;
const targets = new WeakMap<
  Element,
  { to: string; options: (data: PrefetchOptions['data']) => PrefetchOptions }
>();

function viewportObserver(): IntersectionObserver | undefined {
  if (observer || typeof IntersectionObserver !== 'function') return observer;
  // Links within 200 px of the viewport count as on screen (as Next.js does): the first card of a list whose
  // top shows, or the next one a small scroll away.
  observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer?.unobserve(entry.target);
        const target = targets.get(entry.target);
        if (!target || warmed.has(target.to)) continue;
        warmed.add(target.to);
        const data = config.prefetch.viewportData ? 'payload' : 'none';
        whenIdle(() => prefetchPath(target.to, target.options(data)));
      }
    },
    { rootMargin: '200px' },
  );
  return observer;
}

/**
 * Prefetching for one link: its page's code (and, with `config.prefetch.viewportData`, a prerendered page's
 * payload) when it scrolls into view, in idle time only; its page's data (payload or API) on pointer-enter,
 * focus or touch-start, which call the function it returns.
 */
export function usePrefetch(anchor: RefObject<HTMLAnchorElement | null>, to: string, isCurrent: boolean) {
  const { user, signedIn } = useSessionView();
  const manifest = useManifestSource();
  const options = useCallback(
    (data: PrefetchOptions['data']): PrefetchOptions => ({ signedIn, data, manifest }),
    [signedIn, manifest],
  );
  const userId = user?.id ?? null;
  // Data fetched for one visitor is never shown to the next one on this device.
  useEffect(() => {
    pageDataCache.setViewer(userId === null ? null : String(userId));
  }, [userId]);
  // Only once the first page is on screen: until then its own chunk and data need the network.
  const afterFirstPage = useAfterFirstPage();
  useEffect(() => {
    const element = anchor.current;
    const watcher =
      afterFirstPage && !isCurrent && element && !warmed.has(to) && browserCanPrefetch()
        ? viewportObserver()
        : undefined;
    if (!element || !watcher) return;
    targets.set(element, { to, options });
    watcher.observe(element);
    return () => watcher.unobserve(element);
  }, [anchor, to, afterFirstPage, isCurrent, options]);
  // The page on screen has its data already; a link to it prefetches nothing. After the input: a click that
  // follows the pointer at once is handled (and painted) first, and finds this prefetch started before its own
  // navigation.
  const onIntent = () => {
    if (!isCurrent) afterInput(() => prefetchPath(to, options('any')));
  };
  return onIntent;
}
