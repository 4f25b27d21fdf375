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
 * page, or when the browser is idle, whichever comes first; until then a trigger is rendered as it is. (When
 * the code arrives the trigger is mounted anew inside the tooltip: a trigger focused at that very moment would
 * lose focus, which is why the code comes on the first intent, a key press or more before focus can get there.)
 */
const tooltipCode = lazyModule(() => import('./TooltipArk'));

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
  const [hoveredAt, setHoveredAt] = useState<number>();
  useEffect(armLoading, []);
  if (code)
    return (
      <code.TooltipArk label={label} hoveredAt={hoveredAt}>
        {children}
      </code.TooltipArk>
    );
  // Until the code is here, remember when the pointer arrived, so the delay still counts from then.
  return cloneElement(children, {
    onPointerEnter: (event: PointerEvent) => {
      children.props.onPointerEnter?.(event);
      if (event.pointerType !== 'touch') setHoveredAt(performance.now());
      void tooltipCode.load().catch(() => undefined);
    },
    onPointerLeave: (event: PointerEvent) => {
      children.props.onPointerLeave?.(event);
      setHoveredAt(undefined);
    },
  });
}
