import {
  cloneElement,
  type PointerEvent,
  type ReactElement,
  useEffect,
  useState,
  useSyncExternalStore,
} from 'react';
import { lazyModule, onFirstIntent, whenIdle } from '../platform/lazyLoad';

/**
 * Tooltips (Ark UI's tooltip with Zag's popper and Floating UI, about 15 kB gzip) show only after a pointer
 * rests on a control for 700 ms. Their code is fetched on the first pointer or keyboard intent anywhere on the
 * page, or when the browser is idle, whichever comes first; until then a trigger is rendered as it is.
 *
 * Even with the code here, a trigger becomes a tooltip (Zag's machine) only once it is about to be used: when
 * a pointer enters it, or, for every trigger at once, at the first key press on the page. A mounted Zag
 * tooltip installs document-wide pointer, click and focus listeners (@zag-js/focus-visible) that every press
 * anywhere then pays for, a few milliseconds of a link's click at 4x CPU, so a visit that never points at a
 * tooltip never has them. A trigger that becomes a tooltip is mounted anew: the pointer over it starts its
 * delay from the moment it entered (./TooltipArk.tsx), and a focused one would lose focus, which is why
 * keyboard users get theirs at the first key press: an external store's change renders synchronously (React
 * flushes it in a microtask after the listener), before the key's default action can move focus onto one.
 * That render, all of the page's tooltips at once, is part of the first key press.
 */
const tooltipCode = lazyModule(() => import('./TooltipArk'));

/** Whether a key has been pressed on this page: from then on every trigger is a tooltip, ready for focus. */
let keyPressed = false;
function subscribeToKeys(listener: () => void): () => void {
  const onKey = () => {
    keyPressed = true;
    listener();
  };
  if (!keyPressed) document.addEventListener('keydown', onKey, { capture: true, once: true });
  return () => document.removeEventListener('keydown', onKey, true);
}

let armed = false;
/** Starts watching for intent once, when the first tooltip mounts. */
function armLoading(): void {
  if (armed) return;
  armed = true;
  const load = () => {
    tooltipCode.load().catch((error: unknown) => {
      // Without the code a trigger still works; it only has no tooltip. The next intent tries again.
      console.warn('[campaign-web] Tooltips could not be loaded.', error);
      armed = false;
    });
  };
  const cancelIntent = onFirstIntent(() => {
    cancelIdle();
    load();
  });
  const cancelIdle = whenIdle(() => {
    cancelIntent();
    load();
  }, 5000);
}

export interface TooltipProps {
  /** What the tooltip says; for an icon-only control it repeats the control's accessible name. */
  readonly label: string;
  /** The one element that triggers it; it receives the trigger's props (`asChild`). */
  readonly children: ReactElement<{
    onPointerEnter?: (event: PointerEvent) => void;
    onPointerLeave?: (event: PointerEvent) => void;
  }>;
}

/** A tooltip that opens after 700 ms, or at once within 300 ms of another one closing (./TooltipArk.tsx). */
export function Tooltip({ label, children }: TooltipProps) {
  const code = useSyncExternalStore(tooltipCode.subscribe, tooltipCode.get, () => undefined);
  const keyboard = useSyncExternalStore(
    subscribeToKeys,
    () => keyPressed,
    () => false,
  );
  const [hoveredAt, setHoveredAt] = useState<number>();
  // Once pointed at, a trigger stays a tooltip.
  const [pointedAt, setPointedAt] = useState(false);
  useEffect(armLoading, []);
  if (code && (pointedAt || keyboard))
    return (
      <code.TooltipArk label={label} hoveredAt={hoveredAt}>
        {children}
      </code.TooltipArk>
    );
  // Until it is a tooltip, remember when the pointer arrived, so the delay still counts from then.
  return cloneElement(children, {
    onPointerEnter: (event: PointerEvent) => {
      children.props.onPointerEnter?.(event);
      if (event.pointerType !== 'touch') {
        setHoveredAt(performance.now());
        setPointedAt(true);
      }
      void tooltipCode.load().catch(() => undefined);
    },
    onPointerLeave: (event: PointerEvent) => {
      children.props.onPointerLeave?.(event);
      setHoveredAt(undefined);
    },
  });
}
