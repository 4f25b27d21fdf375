import { type AnchorHTMLAttributes, type MouseEvent, useRef } from 'react';
import { useAppCommands, useAppView } from '../platform/appActor';
import { afterInput } from '../platform/tasks';
import { usePrefetch } from './usePrefetch';

/** The link's own: its address, and the pointer-enter, focus and touch-start that prefetch its page. */
export interface LinkProps
  extends Omit<
    AnchorHTMLAttributes<HTMLAnchorElement>,
    'href' | 'onPointerEnter' | 'onFocus' | 'onTouchStart'
  > {
  /** An app path such as `/campaign/3`. */
  readonly to: string;
  readonly replace?: boolean;
}

function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/**
 * An ordinary link that asks the app machine to navigate instead of loading a document. Modified
 * clicks (new tab, new window, download) stay with the browser. Its target's code is prefetched when it is
 * on screen and the browser is idle, its data when someone points at, focuses or touches it (./usePrefetch.ts).
 */
export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const { go } = useAppCommands();
  const isCurrent = useAppView().currentPath === to.split(/[?#]/)[0];
  const anchor = useRef<HTMLAnchorElement>(null);
  const prefetchPage = usePrefetch(anchor, to, isCurrent);
  return (
    <a
      {...rest}
      ref={anchor}
      href={to}
      target={target}
      aria-current={isCurrent ? 'page' : undefined}
      onPointerEnter={prefetchPage}
      onFocus={prefetchPage}
      onTouchStart={prefetchPage}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isPlainLeftClick(event) || (target && target !== '_self')) return;
        event.preventDefault();
        // After the frame the click asked for (the pressed link, its focus ring): the machine's step and the
        // page's render are no part of the click's own task, which then ends at once.
        afterInput(() => go(to, { replace }));
      }}
    />
  );
}
