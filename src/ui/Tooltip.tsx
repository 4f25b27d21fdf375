import { Portal } from '@ark-ui/react/portal';
import { Tooltip as ArkTooltip } from '@ark-ui/react/tooltip';
import { type ReactElement, useSyncExternalStore } from 'react';
import { css } from '../../styled-system/css';
import { config } from '../config';

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

export interface TooltipProps {
  /** What the tooltip says; for an icon-only control it repeats the control's accessible name. */
  readonly label: string;
  /** The one element that triggers it; it receives the trigger's props (`asChild`). */
  readonly children: ReactElement;
}

/** An Ark UI tooltip that opens after 700 ms, or at once within 300 ms of another one closing. */
export function Tooltip({ label, children }: TooltipProps) {
  const warm = useSyncExternalStore(skipDelay.subscribe, skipDelay.isWarm, () => false);
  return (
    <ArkTooltip.Root
      openDelay={warm ? 0 : config.tooltip.openDelayMs}
      // Closing is immediate, as in the spec: the skip window then runs from the moment it is gone.
      closeDelay={0}
      positioning={{ placement: 'bottom', gutter: 8 }}
      onOpenChange={({ open }) => (open ? skipDelay.opened() : skipDelay.closed())}
    >
      <ArkTooltip.Trigger asChild>{children}</ArkTooltip.Trigger>
      <Portal>
        <ArkTooltip.Positioner>
          <ArkTooltip.Content className={content}>{label}</ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  );
}
