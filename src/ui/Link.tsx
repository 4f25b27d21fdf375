import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { AppActor } from './appActor';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** An app path such as `/campaign/3`. */
  readonly to: string;
  readonly replace?: boolean;
}

function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/**
 * An ordinary link that asks the app machine to navigate instead of loading a document. Modified
 * clicks (new tab, new window, download) stay with the browser.
 */
export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const app = AppActor.useActorRef();
  const currentPath = AppActor.useSelector((snapshot) => snapshot.context.current?.location.pathname);
  const isCurrent = currentPath !== undefined && currentPath === to.split(/[?#]/)[0];
  return (
    <a
      {...rest}
      href={to}
      target={target}
      aria-current={isCurrent ? 'page' : undefined}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isPlainLeftClick(event) || (target && target !== '_self')) return;
        event.preventDefault();
        app.send({ type: 'nav.go', to, ...(replace ? { replace } : {}) });
      }}
    />
  );
}
