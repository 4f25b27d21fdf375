/**
 * The vocabulary of toasts, and the pure rules the toast and toaster machines share: swipe geometry,
 * validation, how a toast's options resolve, and the snapshot -> view mapping. No clock, no DOM.
 */

/** `foreground` is announced assertively (the result of something the user did); `background` politely. */
export type ToastType = 'foreground' | 'background';

export type SwipeDirection = 'up' | 'down' | 'left' | 'right';

export type ToastPosition =
  | 'top-left'
  | 'top-center'
  | 'top-right'
  | 'bottom-left'
  | 'bottom-center'
  | 'bottom-right';

/** Why the viewport holds every toast's timer. The timers run only while no reason is left. */
export type PauseReason = 'pointer' | 'focus' | 'window' | 'hidden';

export interface ToastAction {
  /** Shown on the button; `Action` when missing or blank. */
  readonly label?: string;
  /** Runs on click; the toast then closes. */
  readonly onClick?: () => void;
}

/** What `toast.add` accepts. Every field is optional; `id` defaults to a fresh one. */
export interface ToastOptions {
  readonly id?: string;
  readonly title?: string;
  readonly description?: string;
  readonly type?: ToastType;
  /** Milliseconds on screen; `Infinity` (or any value that is not a positive finite number) never closes by itself. */
  readonly duration?: number;
  readonly actions?: readonly ToastAction[];
}

/** What `toast.update` accepts: the same fields, minus the id. */
export type ToastPatch = Omit<ToastOptions, 'id'>;

/** What a toast shows. Title and description are plain text, never markup. */
export interface ToastContent {
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly type: ToastType;
  readonly actions: readonly ToastAction[];
}

export interface SwipeSettings {
  readonly direction: SwipeDirection;
  /** Released farther than this (px, in the swipe direction) closes the toast; nearer snaps it back. */
  readonly thresholdPx: number;
  /** A touch drag must travel this far in the swipe direction before it counts as a swipe. */
  readonly startTouchPx: number;
  /** The same for mouse and pen. */
  readonly startPx: number;
}

/** Everything the toaster machine is configured with; src/config.ts holds the values. */
export interface ToasterSettings {
  readonly durationMs: number;
  readonly maxVisible: number;
  readonly removeDelayMs: number;
  readonly swipe: SwipeSettings;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export const NO_DELTA: Point = { x: 0, y: 0 };

/**
 * The largest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days). Longer delays, Infinity included,
 * fire at once; a toast that never closes by itself waits this long and then finds nothing to do.
 */
export const LONGEST_TIMER_MS = 2_147_483_647;

/** A toast with this duration closes by itself; any other value keeps it until someone closes it. */
export function isTimedDuration(duration: number): boolean {
  return Number.isFinite(duration) && duration > 0;
}

/** Only the swipe direction counts: the drag is clamped to that half-axis, the other axis is ignored. */
export function swipeDelta(start: Point, point: Point, direction: SwipeDirection): Point {
  const x = point.x - start.x;
  const y = point.y - start.y;
  const horizontal = direction === 'left' || direction === 'right';
  const clamp = direction === 'left' || direction === 'up' ? Math.min : Math.max;
  return { x: horizontal ? clamp(0, x) : 0, y: horizontal ? 0 : clamp(0, y) };
}

/** Whether a (clamped) delta goes farther than `threshold` along the swipe direction's axis. */
export function isDeltaInDirection(delta: Point, direction: SwipeDirection, threshold: number): boolean {
  const ax = Math.abs(delta.x);
  const ay = Math.abs(delta.y);
  const horizontal = direction === 'left' || direction === 'right';
  return horizontal ? ax > ay && ax > threshold : !(ax > ay) && ay > threshold;
}

/** How far a drag must go before it is a swipe: fingers wobble more than mice. */
export function swipeStartDistance(pointerType: string, swipe: SwipeSettings): number {
  return pointerType === 'touch' ? swipe.startTouchPx : swipe.startPx;
}

/** The raw drag went farther than the start distance, in any direction: a drag the wrong way is no swipe. */
export function movedBeyond(start: Point, point: Point, distance: number): boolean {
  return Math.abs(point.x - start.x) > distance || Math.abs(point.y - start.y) > distance;
}

/** The message of a bad `type`, as the system the spec comes from words it. */
export function assertToastType(type: unknown): asserts type is ToastType | undefined {
  if (type !== undefined && type !== 'foreground' && type !== 'background') {
    throw new Error('Invalid prop `type` supplied to `Toast`. Expected `foreground | background`.');
  }
}

/** The toaster's label prefixes every announcement, so it must say something. */
export function assertToasterLabel(label: unknown): asserts label is string {
  if (typeof label !== 'string' || label.trim() === '') {
    throw new Error('Invalid prop `label` supplied to `Toaster`. Expected non-empty `string`.');
  }
}

/** Checks options coming from code we do not type-check (plain JS callers, the console). */
export function assertToastOptions(options: ToastPatch): void {
  assertToastType(options.type);
  if (options.duration !== undefined && typeof options.duration !== 'number') {
    throw new Error('Invalid prop `duration` supplied to `Toast`. Expected a number of milliseconds.');
  }
}

export function contentOf(options: ToastPatch): ToastContent {
  return {
    title: options.title,
    description: options.description,
    type: options.type ?? 'foreground',
    actions: options.actions ?? [],
  };
}

/** A patch changes only the fields it names. */
export function patchContent(content: ToastContent, patch: ToastPatch): ToastContent {
  return {
    title: 'title' in patch ? patch.title : content.title,
    description: 'description' in patch ? patch.description : content.description,
    type: patch.type ?? content.type,
    actions: patch.actions ?? content.actions,
  };
}

/** Merges a patch into options that are still waiting in the queue. */
export function patchOptions(options: ToastPatch, patch: ToastPatch): ToastPatch {
  return { ...options, ...patch };
}

/** `Notifications (F8)`: the hotkey as people read it (`KeyT` -> `T`, `Digit1` -> `1`). */
export function hotkeyLabel(hotkey: readonly string[]): string {
  // Stryker disable next-line Regex: Hotkey parts are KeyboardEvent.code values or KeyboardEvent boolean property names (`altKey`...); the only codes containing `Digit` are `Digit0`-`Digit9`, where it is at the start (numpad keys are `Numpad0`-`Numpad9`), so the anchor changes no label.
  return hotkey.map((key) => key.replace(/^Key/, '').replace(/^Digit/, '')).join('+');
}

/** What a screen reader hears when a toast appears: the toaster's label, then the toast's text. */
export function announcementOf(label: string, content: ToastContent): string {
  return [label, content.title, content.description].filter((part) => part && part.trim() !== '').join(' ');
}

export function actionLabelOf(action: ToastAction, fallback: string): string {
  return action.label !== undefined && action.label.trim() !== '' ? action.label : fallback;
}
