import { Portal } from '@ark-ui/react/portal';
import { Tooltip as ArkTooltip, useTooltipContext } from '@ark-ui/react/tooltip';
import {
  type MouseEvent,
  type PointerEvent,
  useEffect,
  useLayoutEffect,
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

/** Whether a tooltip opening now would open at once (./Tooltip.lazy.tsx then brings its machine at once too). */
export const isWarm = skipDelay.isWarm;

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

/** Props of a trigger: attributes and React event handlers. */
export type TriggerProps = Record<string, unknown>;

export interface TooltipProps {
  readonly label: string;
  /** The `id` of the trigger, which ./Tooltip.lazy.tsx renders. */
  readonly triggerId: string;
  /**
   * When the pointer came onto the trigger, or focus to it, before this machine existed: a tooltip pointed at
   * before its code had loaded still opens `openDelayMs` after that moment, not after the load.
   */
  readonly engagedAt: number;
  /** Whether the trigger carries the props reported by `onTriggerProps` yet. */
  readonly ready: boolean;
  /** Receives the trigger's props each time they change (./Tooltip.lazy.tsx puts them on the trigger). */
  readonly onTriggerProps: (props: TriggerProps) => void;
}

/**
 * The machine of one tooltip (Ark UI's): it opens after 700 ms, or at once within 300 ms of another one
 * closing. It renders the content; the trigger is ./Tooltip.lazy.tsx's, which this machine hands its props.
 */
export function Tooltip({ label, triggerId, engagedAt, ready, onTriggerProps }: TooltipProps) {
  const warm = useSyncExternalStore(skipDelay.subscribe, skipDelay.isWarm, () => false);
  // Only for the first open: the part of the delay that loading the code has not used up yet.
  const [catchUpDelay, setCatchUpDelay] = useState<number | undefined>(() =>
    Math.max(0, config.tooltip.openDelayMs - (performance.now() - engagedAt)),
  );
  return (
    <ArkTooltip.Root
      ids={{ trigger: triggerId }}
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
      <Trigger
        triggerId={triggerId}
        ready={ready}
        openAtOnce={catchUpDelay === 0}
        onTriggerProps={onTriggerProps}
        onPointerLeave={() => setCatchUpDelay(undefined)}
      />
      <Portal>
        <ArkTooltip.Positioner>
          <ArkTooltip.Content className={content}>{label}</ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  );
}

interface TriggerReportProps extends Pick<TooltipProps, 'triggerId' | 'ready' | 'onTriggerProps'> {
  /** The pointer has rested for the whole delay already (the code took that long). */
  readonly openAtOnce: boolean;
  readonly onPointerLeave: () => void;
}

/**
 * Hands the trigger's props to ./Tooltip.lazy.tsx whenever the tooltip opens or closes (nothing else in them
 * changes), then tells the machine what happened before it existed: the pointer resting on the trigger, or
 * keyboard focus on it.
 *
 * Zag hears of a press (pointer-down, click) after the frame the press asked for: each of its state changes is
 * a synchronous render (`flushSync`), and closing a tooltip that was about to open took most of a click on a
 * header control at 4x CPU before the control could show it was pressed. It closes a frame later, which nobody
 * can see.
 */
function Trigger({ triggerId, ready, openAtOnce, onTriggerProps, onPointerLeave }: TriggerReportProps) {
  const tooltip = useTooltipContext();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the props change only with `open` (Zag's connect).
  useLayoutEffect(() => {
    const { onPointerDown, onClick, onPointerLeave: leave, ...props } = tooltip.getTriggerProps();
    onTriggerProps({
      ...props,
      onPointerDown: (event: PointerEvent<HTMLButtonElement>) => afterInput(() => onPointerDown?.(event)),
      onClick: (event: MouseEvent<HTMLButtonElement>) => afterInput(() => onClick?.(event)),
      onPointerLeave: (event: PointerEvent<HTMLButtonElement>) => {
        leave?.(event);
        onPointerLeave();
      },
    });
  }, [tooltip.open]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the trigger first carries the props.
  useEffect(() => {
    const trigger = document.getElementById(triggerId);
    if (!ready || !trigger) return;
    // Keyboard focus on the trigger or inside it (a colour-mode label holds its radio) opens it at once.
    const focused = document.activeElement;
    const keyboard = focused !== null && trigger.contains(focused) && focused.matches(':focus-visible');
    if (keyboard || (openAtOnce && trigger.matches(':hover'))) tooltip.setOpen(true);
    // Zag starts its delay on a pointer event over the trigger; the one that happened came before it listened.
    else if (trigger.matches(':hover'))
      trigger.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, pointerType: 'mouse' }));
    else onPointerLeave();
  }, [ready]);
  return null;
}
