/**
 * The toaster's window on the browser: each subscription is a callback actor the toaster invokes in the
 * state that needs it, and each returns its cleanup. The DOM is found through Ark UI's toast anatomy
 * attributes, which src/ui/Toaster.tsx renders.
 */
import { toastAnatomy } from '@ark-ui/react/toast';
import { fromCallback } from 'xstate';
import { createToasterMachine, type ToasterEvent } from '../../machines/toast/toaster.machine';
import type { PauseReason, ToasterSettings } from '../../machines/toast/toaster.utils';
import type { ToastConfig } from '../config';
import { connectToastApi } from './toast';

const parts = toastAnatomy.build();
const selectorOf = (attrs: Record<string, string>) =>
  Object.entries(attrs)
    .map(([name, value]) => `[${name}="${value}"]`)
    .join('');
const VIEWPORT = selectorOf(parts.group.attrs);
const TOAST = selectorOf(parts.root.attrs);
const TABBABLE = 'button:not([disabled]), a[href], input:not([disabled]), [tabindex]:not([tabindex="-1"])';

function viewportElement(): HTMLElement | null {
  return document.querySelector<HTMLElement>(VIEWPORT);
}

function pauseEvent(paused: boolean, reason: PauseReason): ToasterEvent {
  return { type: paused ? 'viewport.pause' : 'viewport.resume', reason };
}

/** Connects `toast.add(...)` and friends (src/platform/toast.ts) to this toaster for as long as it runs. */
export const listenToToastApi = fromCallback<ToasterEvent>(({ sendBack, system }) =>
  connectToastApi(sendBack, () => system.get('toaster')),
);

/** Another window or app has focus: nobody is reading the toasts. Reports the current state on start. */
export const watchWindowFocus = fromCallback<ToasterEvent>(({ sendBack }) => {
  const onBlur = () => sendBack(pauseEvent(true, 'window'));
  const onFocus = () => sendBack(pauseEvent(false, 'window'));
  if (!document.hasFocus()) onBlur();
  window.addEventListener('blur', onBlur);
  window.addEventListener('focus', onFocus);
  return () => {
    window.removeEventListener('blur', onBlur);
    window.removeEventListener('focus', onFocus);
  };
});

/** A background tab (or a minimised window) hides the toasts: their time must not run out unseen. */
export const watchPageVisibility = fromCallback<ToasterEvent>(({ sendBack }) => {
  const report = () => sendBack(pauseEvent(document.visibilityState === 'hidden', 'hidden'));
  if (document.visibilityState === 'hidden') report();
  document.addEventListener('visibilitychange', report);
  return () => document.removeEventListener('visibilitychange', report);
});

/**
 * The hotkey moves focus to the viewport, remembering where it was; leaving the viewport with Tab past
 * either end, or the last toast going away while focus is inside, takes it back there.
 */
export function listenToHotkey(hotkey: readonly string[]) {
  const matches = (event: KeyboardEvent) =>
    hotkey.length > 0 &&
    hotkey.every((key) => (event as unknown as Record<string, unknown>)[key] === true || event.code === key);
  return fromCallback<ToasterEvent>(() => {
    let returnTo: HTMLElement | null = null;
    const giveFocusBack = () => {
      const target = returnTo;
      returnTo = null;
      if (target?.isConnected) target.focus();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const viewport = viewportElement();
      if (!viewport) return;
      const active = document.activeElement;
      if (matches(event)) {
        event.preventDefault();
        if (active instanceof HTMLElement && !viewport.contains(active)) returnTo = active;
        viewport.focus();
        return;
      }
      if (event.key !== 'Tab' || !returnTo || !viewport.contains(active)) return;
      const tabbables = [...viewport.querySelectorAll<HTMLElement>(TABBABLE)];
      const leaving = event.shiftKey
        ? active === viewport || active === tabbables[0]
        : active === tabbables[tabbables.length - 1] || tabbables.length === 0;
      if (!leaving) return;
      event.preventDefault();
      giveFocusBack();
    };
    // Focus went somewhere else by other means (a click): there is nothing to return to any more.
    const onFocusIn = (event: FocusEvent) => {
      const viewport = viewportElement();
      if (viewport && event.target instanceof Node && !viewport.contains(event.target)) returnTo = null;
    };
    window.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
      if (viewportElement()?.contains(document.activeElement)) giveFocusBack();
    };
  });
}

/** Escape closes the focused toast, or the newest one; the machine decides which, from what has focus. */
export const listenToEscape = fromCallback<ToasterEvent>(({ sendBack }) => {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const active = document.activeElement;
    const focusedToast = active instanceof Element ? active.closest(TOAST) : null;
    sendBack({ type: 'viewport.escape', toastId: focusedToast?.getAttribute('data-toast-id') ?? null });
  };
  window.addEventListener('keydown', onKeyDown);
  return () => window.removeEventListener('keydown', onKeyDown);
});

export function toasterSettingsFrom(toast: ToastConfig): ToasterSettings {
  return {
    durationMs: toast.durationMs,
    maxVisible: toast.maxVisible,
    removeDelayMs: toast.removeDelayMs,
    swipe: {
      direction: toast.swipeDirection,
      thresholdPx: toast.swipeThresholdPx,
      startTouchPx: toast.swipeStartTouchPx,
      startPx: toast.swipeStartPx,
    },
  };
}

/** The toaster with the browser's clock and listeners. */
export function createBrowserToaster(toast: ToastConfig) {
  return createToasterMachine({
    settings: toasterSettingsFrom(toast),
    now: () => performance.now(),
  }).provide({
    actors: {
      listenToToastApi,
      watchWindowFocus,
      watchPageVisibility,
      listenToHotkey: listenToHotkey(toast.hotkey),
      listenToEscape,
    },
  });
}
