import { type RefObject, useCallback, useEffect } from 'react';
import { config } from '../config';
import { whenIdle } from '../platform/lazyLoad';
import { browserCanPrefetch, type PrefetchOptions, pageDataCache, prefetchPath } from '../platform/prefetch';
import { AppActor, useSessionView } from './appActor';
import { useAfterFirstPage } from './useAfterFirstPage';

/** Links seen on screen, warmed once each while the browser is idle (code, and data if so configured). */
const warmed = new Set<string>();
let observer: IntersectionObserver | undefined;
const targets = new WeakMap<Element, { to: string; options: (data: boolean) => PrefetchOptions }>();

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
        whenIdle(() => prefetchPath(target.to, target.options(config.prefetch.viewportData)));
      }
    },
    { rootMargin: '200px' },
  );
  return observer;
}

/**
 * Prefetching for one link: its page's code (and, with `config.prefetch.viewportData`, its data) when it
 * scrolls into view, in idle time only; its page's data on pointer-enter, focus or touch-start. Returns the event handlers to spread on the anchor.
 */
export function usePrefetch(anchor: RefObject<HTMLAnchorElement | null>, to: string, isCurrent: boolean) {
  const { user, signedIn } = useSessionView();
  const prerendered = AppActor.useSelector((snapshot) => snapshot.context.prerendered);
  const buildId = AppActor.useSelector((snapshot) => snapshot.context.build.id);
  const options = useCallback(
    (data: boolean): PrefetchOptions => ({ signedIn, data, payloads: { prerendered, buildId } }),
    [signedIn, prerendered, buildId],
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
  // The page on screen has its data already; a link to it prefetches nothing.
  const onIntent = () => {
    if (!isCurrent) prefetchPath(to, options(true));
  };
  return { onPointerEnter: onIntent, onFocus: onIntent, onTouchStart: onIntent };
}
