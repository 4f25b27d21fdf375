import {
  cloneElement,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { lazyModule, whenIdle } from '../platform/lazyLoad';
import type { TriggerProps } from './Tooltip';

/**
 * Tooltips (Ark UI's tooltip with Zag's popper and Floating UI, about 15 kB gzip) show only after a pointer
 * rests on a control for 700 ms, or keyboard focus reaches it. Their code is fetched when the browser is idle,
 * or when a trigger is pointed at or focused, whichever comes first.
 */
const tooltipCode = lazyModule(() => import('./Tooltip'));

/** Fetches the code. Without it a trigger still works, with no tooltip, and the next need tries again. */
function load(): void {
  tooltipCode
    .load()
    .catch((error: unknown) => console.warn('[campaign-web] Tooltips could not be loaded.', error));
}

let armed = false;
/** Fetches the code when the browser is next idle after the first tooltip mounts. */
function armLoading(): void {
  if (armed) return;
  armed = true;
  whenIdle(load, 5000);
}

export interface LazyTooltipProps {
  /** What the tooltip says; for an icon-only control it repeats the control's accessible name. */
  readonly label: string;
  /** The one element that triggers it; it receives the trigger's props and an `id`. */
  readonly children: ReactElement;
}

/**
 * How long the pointer rests on a trigger before the tooltip's machine comes: a pointer passing over, or one
 * that presses at once, never pays for it. The 700 ms still count from the pointer's arrival.
 */
export const REST_MS = 100;

/**
 * A tooltip that opens after 700 ms, or at once within 300 ms of another one closing (./Tooltip.tsx).
 *
 * The trigger is rendered here, always in the same place, so it is never mounted anew. Zag's tooltip machine
 * (./Tooltip.tsx, beside it) comes only once the pointer rests on the trigger or keyboard focus reaches it,
 * and hands its trigger props back: a mounted tooltip machine listens to every press and focus change in the
 * document, and its first render is long (about 90 ms at 4x CPU), which must not fall in a click.
 */
export function LazyTooltip({ label, children }: LazyTooltipProps) {
  const code = useSyncExternalStore(tooltipCode.subscribe, tooltipCode.get, () => undefined);
  const id = useId();
  // When the pointer came onto the trigger, or keyboard focus to it, before its machine was there.
  const [engagedAt, setEngagedAt] = useState<number>();
  const [machineProps, setMachineProps] = useState<TriggerProps>();
  const resting = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(armLoading, []);
  const stop = () => clearTimeout(resting.current);
  const props: TriggerProps = {
    ...(machineProps ?? {
      id,
      onPointerEnter(event: PointerEvent) {
        // A touch never opens a hover tooltip: a finger resting on a control is a press.
        if (event.pointerType === 'touch') return;
        const at = performance.now();
        load();
        stop();
        // Within the skip window the next tooltip opens at once, so its machine comes at once too.
        if (code?.isWarm()) setEngagedAt(at);
        else resting.current = setTimeout(() => setEngagedAt(at), REST_MS);
      },
      onPointerLeave: stop,
      // A press before the machine is ready (on its way, or still rendering): no tooltip until the pointer
      // comes back.
      onPointerDown() {
        stop();
        setEngagedAt(undefined);
      },
      onFocus(event: FocusEvent) {
        // Focus from a click is no reason to show a tooltip; from the keyboard it is.
        if (!(event.target as Element).matches(':focus-visible')) return;
        setEngagedAt(performance.now());
        load();
      },
    }),
  };
  // The child's own handlers run first, then the tooltip's.
  const own = children.props as TriggerProps;
  for (const [name, handler] of Object.entries(props)) {
    const first = own[name];
    if (typeof first === 'function' && typeof handler === 'function')
      props[name] = (event: unknown) => {
        first(event);
        handler(event);
      };
  }
  return (
    <>
      {cloneElement(children, props)}
      {code && engagedAt !== undefined ? (
        <code.Tooltip
          label={label}
          triggerId={id}
          engagedAt={engagedAt}
          ready={machineProps !== undefined}
          onTriggerProps={setMachineProps}
        />
      ) : null}
    </>
  );
}
