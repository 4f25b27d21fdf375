/**
 * The colour mode's window on the browser: storage (with a memory fallback when it throws or is missing),
 * the OS scheme through matchMedia (light when there is none), the `storage` event from other tabs, and the
 * `<html>` element. Each subscription is a callback actor that reports the current value on start and
 * returns its cleanup.
 */
import { fromCallback } from 'xstate';
import { TRANSITION_FREEZE_CSS } from '../../core/colorModeFreeze';
import {
  type ColorModeEvent,
  type ColorModePreference,
  type ColorModeValue,
  colorModeMachine,
} from '../../machines/colorMode/colorMode.machine';
import type { ColorModeConfig } from '../config';
import { afterPaint } from './tasks';

/** Storage that never throws: what could not be written is kept in memory for this page's life. */
export function createPreferenceStore(key: string) {
  let memory: string | null = null;
  let useMemory = false;
  // Each access throws where storage fails: a page that may not use it (the getter throws), a browser without
  // it (`undefined`, a TypeError), a full quota or a privacy mode (the call throws).
  return {
    read(): string | null {
      if (useMemory) return memory;
      try {
        return window.localStorage.getItem(key);
      } catch {
        useMemory = true;
        return memory;
      }
    },
    write(value: string): void {
      memory = value;
      if (useMemory) return;
      try {
        window.localStorage.setItem(key, value);
      } catch {
        useMemory = true;
      }
    },
  };
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Reports the OS scheme now and on every change; without matchMedia the answer is light, once. */
export const watchSystemColorScheme = fromCallback<ColorModeEvent>(({ sendBack }) => {
  if (typeof window.matchMedia !== 'function') {
    sendBack({ type: 'system.colorSchemeChanged', dark: false });
    return () => {};
  }
  const query = window.matchMedia(DARK_QUERY);
  const report = () => sendBack({ type: 'system.colorSchemeChanged', dark: query.matches });
  report();
  query.addEventListener('change', report);
  return () => query.removeEventListener('change', report);
});

/** Sets the applied mode on `<html>`: class, data attribute, `color-scheme` and the theme-color meta together. */
export function applyColorMode(value: ColorModeValue, themeColors: ColorModeConfig['themeColors']): void {
  const html = document.documentElement;
  const changed = html.dataset.colorMode !== value;
  // Without this, every element with a colour transition would fade separately: a ripple, not a switch.
  const freeze = changed ? document.createElement('style') : null;
  if (freeze) {
    freeze.textContent = TRANSITION_FREEZE_CSS;
    document.head.appendChild(freeze);
  }
  html.classList.remove(value === 'dark' ? 'light' : 'dark');
  html.classList.add(value);
  html.dataset.colorMode = value;
  html.style.colorScheme = value;
  let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.appendChild(meta);
  }
  meta.content = themeColors[value];
  if (freeze)
    // Once the browser has painted the new colours, transitions come back. Reading a computed style first
    // resolves them in case it has not painted yet; after a paint it costs nothing, while in the click's own
    // task it was a whole-page style recalculation on top of the frame's.
    afterPaint(() => {
      void window.getComputedStyle(freeze).opacity;
      freeze.remove();
    });
}

/** The colour-mode machine with the browser's implementations. */
export function createBrowserColorMode(config: ColorModeConfig) {
  const store = createPreferenceStore(config.storageKey);
  return colorModeMachine.provide({
    actors: {
      watchSystemColorScheme,
      // What is stored now, then every write by another tab (`key === null` is a cleared storage, whose
      // `newValue` is null too).
      watchStorage: fromCallback<ColorModeEvent>(({ sendBack }) => {
        sendBack({ type: 'storage.changed', value: store.read() });
        const onStorage = (event: StorageEvent) => {
          if (event.key !== null && event.key !== config.storageKey) return;
          sendBack({ type: 'storage.changed', value: event.newValue });
        };
        window.addEventListener('storage', onStorage);
        return () => window.removeEventListener('storage', onStorage);
      }),
    },
    actions: {
      applyColorMode: (_, { value }) => applyColorMode(value, config.themeColors),
      persistPreference: (_, { preference }: { preference: ColorModePreference }) => store.write(preference),
      // The spec's own words (nuxt-behaviours.md section 9).
      warnCannotForceSystem: () =>
        console.warn('You cannot force the colorMode to system at the page level.'),
    },
  });
}
