import { ark } from '@ark-ui/react/factory';
import { Portal } from '@ark-ui/react/portal';
import { Tooltip as ArkTooltip, useTooltipContext } from '@ark-ui/react/tooltip';
import {
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type Ref,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { css } from '../../styled-system/css';
import { config } from '../config';
import { afterInput } from '../platform/tasks';

/**
 * The skip delay shared by every tooltip (spec section 12, Reka's TooltipProvider): after one tooltip has
 * been open, the next opens at once, until `skipDelayMs` after the last one closed. Zag only skips the delay
 * while another tooltip is still open, so the window after closing is kept here, beside the component that
 * owns it. It is widget state, not app state: nothing else reads it.
 */
const skipDelay = (() => {
  let warm = false;
  let cooling: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const set = (next: boolean) => {
    if (warm === next) return;
    warm = next;
    for (const listener of listeners) listener();
  };
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isWarm: () => warm,
    opened() {
      clearTimeout(cooling);
      set(true);
    },
    closed() {
      clearTimeout(cooling);
      cooling = setTimeout(() => set(false), config.tooltip.skipDelayMs);
    },
  };
})();

const content = css({
  bg: 'fg.highlighted',
  color: 'bg',
  px: '2',
  py: '1',
  borderRadius: 'control',
  fontSize: 'xs',
  fontWeight: 'medium',
  boxShadow: 'md',
  zIndex: 70,
  maxW: '16rem',
});

export interface TooltipArkProps {
  readonly label: string;
  readonly children: ReactElement;
  /**
   * When the pointer came to rest on the trigger before this code had loaded (see ./Tooltip.tsx): the
   * tooltip still opens `openDelayMs` after that moment, not after the load.
   */
  readonly hoveredAt?: number;
}

/** An Ark UI tooltip that opens after 700 ms, or at once within 300 ms of another one closing. */
export function TooltipArk({ label, children, hoveredAt }: TooltipArkProps) {
  const warm = useSyncExternalStore(skipDelay.subscribe, skipDelay.isWarm, () => false);
  const trigger = useRef<HTMLButtonElement>(null);
  // Only for the first open after a late load: the part of the delay that the load has not used up yet.
  const [catchUpDelay, setCatchUpDelay] = useState(() =>
    hoveredAt === undefined
      ? undefined
      : Math.max(0, config.tooltip.openDelayMs - (performance.now() - hoveredAt)),
  );
  // The pointer has rested for the whole delay already (the code took that long): open now, not after a 0 ms
  // timer. `hoveredAt` is cleared when the pointer leaves, so it is still there.
  const [openAtOnce] = useState(() => catchUpDelay === 0);
  useEffect(() => {
    const element = trigger.current;
    if (hoveredAt === undefined) return;
    if (openAtOnce) {
      skipDelay.opened();
      return;
    }
    if (!element?.matches(':hover')) {
      setCatchUpDelay(undefined);
      return;
    }
    // Zag starts its delay on a pointer event over the trigger; the one that happened came before it existed.
    element.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, pointerType: 'mouse' }));
  }, [hoveredAt, openAtOnce]);
  return (
    <ArkTooltip.Root
      defaultOpen={openAtOnce}
      openDelay={warm ? 0 : (catchUpDelay ?? config.tooltip.openDelayMs)}
      // Closing is immediate, as in the spec: the skip window then runs from the moment it is gone.
      closeDelay={0}
      positioning={{ placement: 'bottom', gutter: 8 }}
      onOpenChange={({ open }) => {
        setCatchUpDelay(undefined);
        if (open) skipDelay.opened();
        else skipDelay.closed();
      }}
    >
      <Trigger triggerRef={trigger} onPointerLeave={() => setCatchUpDelay(undefined)}>
        {children}
      </Trigger>
      <Portal>
        <ArkTooltip.Positioner>
          <ArkTooltip.Content className={content}>{label}</ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  );
}

interface TriggerProps {
  readonly triggerRef: Ref<HTMLElement>;
  readonly onPointerLeave: () => void;
  readonly children: ReactElement;
}

/**
 * Ark's trigger (`ArkTooltip.Trigger asChild`), except that Zag hears of a press (pointer-down, click) after the
 * frame the press asked for: each of its state changes is a synchronous render (`flushSync`), and closing a
 * tooltip that was about to open took most of a click on a header control at 4x CPU before the control could
 * show it was pressed. The tooltip closes a frame later, which nobody can see.
 */
function Trigger({ triggerRef, onPointerLeave, children }: TriggerProps) {
  const tooltip = useTooltipContext();
  const { onPointerDown, onClick, ...props } = tooltip.getTriggerProps();
  return (
    <ark.button
      asChild
      ref={triggerRef as Ref<HTMLButtonElement>}
      {...props}
      onPointerDown={(event: PointerEvent<HTMLButtonElement>) => afterInput(() => onPointerDown?.(event))}
      onClick={(event: MouseEvent<HTMLButtonElement>) => afterInput(() => onClick?.(event))}
      onPointerLeave={(event: PointerEvent<HTMLButtonElement>) => {
        props.onPointerLeave?.(event);
        onPointerLeave();
      }}
    >
      {children}
    </ark.button>
  );
}
