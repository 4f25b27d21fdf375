// @vitest-environment happy-dom
// The colour mode in the browser (src/platform/colorMode.ts): the preference kept in localStorage (in memory when
// storage fails), the OS scheme from matchMedia (happy-dom answers from its device settings and reports a change
// on resize, as a browser does when the OS switches), other tabs' writes, and the mode set on `<html>`.
// happy-dom's MediaQueryList reports a change only against its first answer being light, so a test that
// watches changes starts with a light OS.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, type AnyEventObject, createActor, setup } from 'xstate';
import { TRANSITION_FREEZE_CSS } from '../../core/colorModeFreeze';
import type { ColorModeConfig } from '../../src/config';
import {
  applyColorMode,
  createBrowserColorMode,
  createPreferenceStore,
  watchSystemColorScheme,
} from '../../src/platform/colorMode';

const themeColors = { light: '#fafafa', dark: '#101010' };
const testConfig: ColorModeConfig = { storageKey: 'test-color-mode', themeColors };
const html = document.documentElement;

/** The operating system's colour scheme; a resize is when happy-dom tells matchMedia listeners of the change. */
function osScheme(scheme: 'light' | 'dark') {
  const { settings } = (
    window as unknown as { happyDOM: { settings: { device: { prefersColorScheme: string } } } }
  ).happyDOM;
  settings.device.prefersColorScheme = scheme;
  window.dispatchEvent(new Event('resize'));
}

/**
 * localStorage that throws on every read or every write, as a full quota or a privacy mode does (the real
 * storage is behind it, and returned). happy-dom's Storage is a proxy whose methods cannot be spied on.
 */
function storageThatRefuses(what: 'reads' | 'writes') {
  const real = localStorage;
  const refuse = () => {
    throw new DOMException('refused', what === 'writes' ? 'QuotaExceededError' : 'SecurityError');
  };
  const storage = {
    getItem: (key: string) => (what === 'reads' ? refuse() : real.getItem(key)),
    setItem: (key: string, value: string) => (what === 'writes' ? refuse() : real.setItem(key, value)),
  };
  vi.spyOn(window, 'localStorage', 'get').mockReturnValue(storage as unknown as Storage);
  return real;
}

/** Another tab wrote (or cleared, with `key: null`) the storage. */
function otherTabWrote(key: string | null, newValue: string | null) {
  window.dispatchEvent(new StorageEvent('storage', { key, newValue }));
}

/** The listeners of `type` added to `target` and not removed since. */
function liveListeners(target: EventTarget, type: string) {
  const live = new Set<unknown>();
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  vi.spyOn(target, 'addEventListener').mockImplementation((name, listener, options) => {
    if (name === type) live.add(listener);
    add(name, listener, options);
  });
  vi.spyOn(target, 'removeEventListener').mockImplementation((name, listener, options) => {
    if (name === type) live.delete(listener);
    remove(name, listener, options);
  });
  return live;
}

/** A `scheduler.postTask` that holds its tasks until the test runs them: the paint has not happened yet. */
function holdPostedTasks() {
  const posted: (() => void)[] = [];
  vi.stubGlobal('scheduler', { postTask: (task: () => void) => posted.push(task) });
  return posted;
}

function freezes() {
  return [...document.head.querySelectorAll('style')].filter(
    (style) => style.textContent === TRANSITION_FREEZE_CSS,
  );
}

function themeColorMetas() {
  return [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')];
}

/** The events a callback actor sends back to the machine that invokes it. */
function sentBackBy(logic: AnyActorLogic) {
  const events: AnyEventObject[] = [];
  const parent = createActor(
    setup({ actors: { logic } }).createMachine({
      invoke: { src: 'logic' },
      on: { '*': { actions: ({ event }) => events.push(event) } },
    }),
  );
  parent.start();
  return { events, stop: () => parent.stop() };
}

function startColorMode() {
  const actor = createActor(createBrowserColorMode(testConfig), { input: {} });
  actor.start();
  return actor;
}

beforeEach(() => {
  localStorage.clear();
  osScheme('light');
  html.className = '';
  delete html.dataset.colorMode;
  html.style.colorScheme = '';
  document.head.innerHTML = '';
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createPreferenceStore', () => {
  it('reads what an earlier page stored under its key', () => {
    localStorage.setItem('test-color-mode', 'dark');
    localStorage.setItem('another-key', 'light');
    expect(createPreferenceStore('test-color-mode').read()).toBe('dark');
  });

  it('reads nothing when nothing is stored', () => {
    expect(createPreferenceStore('test-color-mode').read()).toBeNull();
  });

  it('writes to localStorage, so the next page load reads it', () => {
    createPreferenceStore('test-color-mode').write('light');
    expect(localStorage.getItem('test-color-mode')).toBe('light');
    expect(createPreferenceStore('test-color-mode').read()).toBe('light');
  });

  it('keeps a write that storage refused (quota, privacy mode) for the page, over what storage still holds', () => {
    localStorage.setItem('test-color-mode', 'light');
    storageThatRefuses('writes');
    const store = createPreferenceStore('test-color-mode');
    expect(() => store.write('dark')).not.toThrow();
    expect(store.read()).toBe('dark');
  });

  it('works from memory when storage cannot be read, and leaves storage alone from then on', () => {
    const stored = storageThatRefuses('reads');
    const store = createPreferenceStore('test-color-mode');
    expect(store.read()).toBeNull();
    store.write('dark');
    expect(store.read()).toBe('dark');
    // Storage that failed once is not trusted with half the writes: a reload reads the older state, not a mix.
    expect(stored.getItem('test-color-mode')).toBeNull();
  });

  it('works from memory when the page may not touch localStorage at all (its getter throws)', () => {
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const store = createPreferenceStore('test-color-mode');
    expect(store.read()).toBeNull();
    store.write('dark');
    expect(store.read()).toBe('dark');
  });

  it('works from memory where there is no localStorage', () => {
    vi.stubGlobal('localStorage', undefined);
    const store = createPreferenceStore('test-color-mode');
    store.write('dark');
    expect(store.read()).toBe('dark');
  });
});

describe('watchSystemColorScheme', () => {
  it('reports the OS scheme at once', () => {
    osScheme('dark');
    const { events, stop } = sentBackBy(watchSystemColorScheme);
    expect(events).toEqual([{ type: 'system.colorSchemeChanged', dark: true }]);
    stop();
  });

  it('reports every change of the OS scheme', () => {
    const { events, stop } = sentBackBy(watchSystemColorScheme);
    osScheme('dark');
    osScheme('light');
    expect(events).toEqual([
      { type: 'system.colorSchemeChanged', dark: false },
      { type: 'system.colorSchemeChanged', dark: true },
      { type: 'system.colorSchemeChanged', dark: false },
    ]);
    stop();
  });

  it('reports light, once, where there is no matchMedia', () => {
    vi.stubGlobal('matchMedia', undefined);
    const { events, stop } = sentBackBy(watchSystemColorScheme);
    expect(events).toEqual([{ type: 'system.colorSchemeChanged', dark: false }]);
    stop();
  });

  it('stops listening to the OS when stopped', () => {
    const lists: Set<unknown>[] = [];
    const matchMedia = window.matchMedia.bind(window);
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => {
      const list = matchMedia(query);
      lists.push(liveListeners(list, 'change'));
      return list;
    });
    const { stop } = sentBackBy(watchSystemColorScheme);
    expect(lists.map((live) => live.size)).toEqual([1]);
    stop();
    expect(lists.map((live) => live.size)).toEqual([0]);
  });
});

describe('applyColorMode', () => {
  it('sets the class, the data attribute, the color-scheme and the theme colour together', () => {
    applyColorMode('dark', themeColors);
    expect([...html.classList]).toEqual(['dark']);
    expect(html.dataset.colorMode).toBe('dark');
    expect(html.style.colorScheme).toBe('dark');
    expect(themeColorMetas().map((meta) => meta.content)).toEqual(['#101010']);
  });

  it('replaces the other mode rather than adding to it', () => {
    applyColorMode('dark', themeColors);
    applyColorMode('light', themeColors);
    expect([...html.classList]).toEqual(['light']);
    expect(html.dataset.colorMode).toBe('light');
    expect(html.style.colorScheme).toBe('light');
    expect(themeColorMetas().map((meta) => meta.content)).toEqual(['#fafafa']);
    applyColorMode('dark', themeColors);
    expect([...html.classList]).toEqual(['dark']);
  });

  it('updates the theme-color meta the page already has', () => {
    document.head.innerHTML = '<meta name="theme-color" content="#123456">';
    applyColorMode('light', themeColors);
    expect(themeColorMetas().map((meta) => meta.content)).toEqual(['#fafafa']);
  });

  it('keeps the other classes of <html>', () => {
    html.classList.add('js');
    applyColorMode('dark', themeColors);
    expect(html.classList.contains('js')).toBe(true);
  });

  it('freezes transitions until the new colours are painted, so the page switches instead of rippling', () => {
    const posted = holdPostedTasks();
    applyColorMode('dark', themeColors);
    expect(freezes()).toHaveLength(1);
    expect(posted).toHaveLength(1);
    for (const task of posted) task();
    expect(freezes()).toHaveLength(0);
  });

  it('lifts the freeze at once in a browser without scheduler.postTask', () => {
    applyColorMode('dark', themeColors);
    expect(freezes()).toHaveLength(0);
    expect(html.dataset.colorMode).toBe('dark');
  });

  it('freezes nothing when the mode is already applied', () => {
    applyColorMode('dark', themeColors);
    const posted = holdPostedTasks();
    applyColorMode('dark', themeColors);
    expect(freezes()).toHaveLength(0);
    expect(posted).toHaveLength(0);
  });

  it('applies the same mode again without a scheduler, too', () => {
    applyColorMode('light', themeColors);
    expect(() => applyColorMode('light', themeColors)).not.toThrow();
    expect(freezes()).toHaveLength(0);
  });
});

describe('createBrowserColorMode', () => {
  it('shows the stored preference, with the configured theme colour, once the first page settles', () => {
    localStorage.setItem('test-color-mode', 'dark');
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: null });
    expect(html.dataset.colorMode).toBe('dark');
    expect(themeColorMetas().map((meta) => meta.content)).toEqual(['#101010']);
    actor.stop();
  });

  it('follows the OS when nothing is stored', () => {
    osScheme('dark');
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: null });
    expect(html.dataset.colorMode).toBe('dark');
    actor.stop();
  });

  it('follows the changes of the OS scheme', () => {
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: null });
    expect(html.dataset.colorMode).toBe('light');
    osScheme('dark');
    expect(html.dataset.colorMode).toBe('dark');
    actor.stop();
  });

  it('stores the chosen preference under the configured key, for the next page load', () => {
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: null });
    actor.send({ type: 'colorMode.set', preference: 'dark' });
    expect(localStorage.getItem('test-color-mode')).toBe('dark');
    actor.stop();
    const next = startColorMode();
    expect(next.getSnapshot().context.preference).toBe('dark');
    next.stop();
  });

  it("takes another tab's choice", () => {
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: null });
    otherTabWrote('test-color-mode', 'dark');
    expect(actor.getSnapshot().context.preference).toBe('dark');
    expect(html.dataset.colorMode).toBe('dark');
    actor.stop();
  });

  it("ignores another tab's writes to other keys", () => {
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: null });
    otherTabWrote('another-key', 'dark');
    expect(actor.getSnapshot().context.preference).toBe('system');
    expect(html.dataset.colorMode).toBe('light');
    actor.stop();
  });

  it('goes back to the default when another tab clears the storage', () => {
    localStorage.setItem('test-color-mode', 'dark');
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: null });
    localStorage.clear();
    otherTabWrote(null, null);
    expect(actor.getSnapshot().context.preference).toBe('system');
    expect(html.dataset.colorMode).toBe('light');
    actor.stop();
  });

  it('writes the default over a stored value that is no preference', () => {
    localStorage.setItem('test-color-mode', 'purple');
    const actor = startColorMode();
    expect(localStorage.getItem('test-color-mode')).toBe('system');
    actor.stop();
  });

  it('warns in the words of the spec when a page tries to force `system`', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: 'system' });
    expect(warn).toHaveBeenCalledWith('You cannot force the colorMode to system at the page level.');
    actor.stop();
  });

  it('stops listening to other tabs when stopped', () => {
    const live = liveListeners(window, 'storage');
    const actor = startColorMode();
    expect(live.size).toBe(1);
    actor.stop();
    expect(live.size).toBe(0);
  });
});
