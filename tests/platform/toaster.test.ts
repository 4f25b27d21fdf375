// @vitest-environment happy-dom
// The toaster's browser side (src/platform/toaster.ts): what each listener reports to the toaster, how the
// hotkey moves focus into the toast viewport and back out, that stopping a listener removes it, and the
// browser toaster running the app's toast API on the page's clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CallbackActorLogic, createActor, setup } from 'xstate';
import type { ToasterEvent } from '../../machines/toast/toaster.machine';
import { config, type ToastConfig } from '../../src/config';

type ToasterModule = typeof import('../../src/platform/toaster');
type ToastModule = typeof import('../../src/platform/toast');

let platform: ToasterModule;
let api: ToastModule;
/** Errors thrown by a listener: the browser reports them on `window` as uncaught, so none may occur. */
let uncaught: unknown[];
const recordError = (event: ErrorEvent) => uncaught.push(event.error);

beforeEach(async () => {
  // The toast API keeps its connection in module state: a fresh copy per test, shared by both modules.
  vi.resetModules();
  platform = await import('../../src/platform/toaster');
  api = await import('../../src/platform/toast');
  uncaught = [];
  window.addEventListener('error', recordError);
});

afterEach(() => {
  window.removeEventListener('error', recordError);
  document.body.innerHTML = '';
  vi.useRealTimers();
  expect(uncaught).toEqual([]);
});

/**
 * The page as src/ui/Toaster.tsx renders it (Ark UI's toast anatomy): a focusable viewport holding the
 * toasts newest first, each toast focusable with its buttons inside, between two controls of the page.
 * The older toast ends with a disabled button and an element taken out of the tab order: neither is a stop.
 */
function renderPage({ toasts = true } = {}) {
  document.body.innerHTML = `
    <button id="page">Save</button>
    <div data-scope="toast" data-part="group" role="region" tabindex="-1" id="viewport">
      ${
        toasts
          ? `<ol>
        <li data-scope="toast" data-part="root" data-toast-id="newer" tabindex="0" id="newer">
          <input id="reply" /><button id="undo">Undo</button>
        </li>
        <li data-scope="toast" data-part="root" data-toast-id="older" tabindex="0" id="older">
          <a href="/help" id="help">Help</a><button id="close">Close</button>
          <button disabled>Gone</button><span tabindex="-1">note</span>
        </li>
      </ol>`
          : ''
      }
    </div>
    <button id="other">Other</button>`;
}

function byId(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`no #${id}`);
  return element;
}

/** Focus moved by the user (or by the browser's default action for Tab, which happy-dom does not take). */
function focus(id: string) {
  byId(id).focus();
}

const focused = () => document.activeElement?.id || document.activeElement?.tagName;

/** A key pressed on the focused element, bubbling as in the browser; true when the page prevented the default. */
function press(key: string, init: KeyboardEventInit = {}): boolean {
  const event = new KeyboardEvent('keydown', { key, code: key, bubbles: true, cancelable: true, ...init });
  (document.activeElement ?? document.body).dispatchEvent(event);
  return event.defaultPrevented;
}

/**
 * Runs a listener as the toaster does: invoked in the state that needs it, and stopped by leaving that state
 * while the toaster runs on. XState fails a parent on a child's unhandled error, so a cleanup that throws
 * would take the whole toaster down: `stop` checks that it did not.
 */
function start(logic: CallbackActorLogic<ToasterEvent>) {
  const received: ToasterEvent[] = [];
  const parent = setup({
    types: { events: {} as ToasterEvent | { type: 'test.leave' } },
    actors: { logic },
  }).createMachine({
    initial: 'listening',
    states: { listening: { invoke: { src: 'logic' }, on: { 'test.leave': 'left' } }, left: {} },
    on: {
      '*': {
        guard: ({ event }) => !event.type.startsWith('xstate.'),
        actions: ({ event }) => received.push(event as ToasterEvent),
      },
    },
  });
  const actor = createActor(parent);
  actor.subscribe({ error: () => {} });
  actor.start();
  const stop = () => {
    actor.send({ type: 'test.leave' });
    expect(actor.getSnapshot().error).toBeUndefined();
    actor.stop();
  };
  return { received, stop };
}

/** Watches `window` and `document` listeners; the returned function lists those added and not yet removed. */
function trackListeners() {
  const spies = [window, document].map((target) => ({
    add: vi.spyOn(target, 'addEventListener'),
    remove: vi.spyOn(target, 'removeEventListener'),
  }));
  return () =>
    spies.flatMap(({ add, remove }) =>
      add.mock.calls
        .filter(([type, listener]) => !remove.mock.calls.some(([t, l]) => t === type && l === listener))
        .map(([type]) => type),
    );
}

describe('watchWindowFocus', () => {
  it('pauses while another window has focus and resumes when focus comes back', () => {
    const { received, stop } = start(platform.watchWindowFocus);
    expect(received).toEqual([]);
    window.dispatchEvent(new Event('blur'));
    window.dispatchEvent(new Event('focus'));
    expect(received).toEqual([
      { type: 'viewport.pause', reason: 'window' },
      { type: 'viewport.resume', reason: 'window' },
    ]);
    stop();
    window.dispatchEvent(new Event('blur'));
    expect(received).toHaveLength(2);
  });

  it('starts paused when the window is already in the background', () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    const { received, stop } = start(platform.watchWindowFocus);
    expect(received).toEqual([{ type: 'viewport.pause', reason: 'window' }]);
    stop();
  });
});

describe('watchPageVisibility', () => {
  let visibility: DocumentVisibilityState;
  beforeEach(() => {
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  });
  const becomes = (state: DocumentVisibilityState) => {
    visibility = state;
    document.dispatchEvent(new Event('visibilitychange'));
  };

  it('pauses while the tab is hidden and resumes when it shows again', () => {
    const { received, stop } = start(platform.watchPageVisibility);
    expect(received).toEqual([]);
    becomes('hidden');
    becomes('visible');
    expect(received).toEqual([
      { type: 'viewport.pause', reason: 'hidden' },
      { type: 'viewport.resume', reason: 'hidden' },
    ]);
    stop();
    becomes('hidden');
    expect(received).toHaveLength(2);
  });

  it('starts paused when the tab is already hidden', () => {
    visibility = 'hidden';
    const { received, stop } = start(platform.watchPageVisibility);
    expect(received).toEqual([{ type: 'viewport.pause', reason: 'hidden' }]);
    stop();
  });
});

describe('listenToEscape', () => {
  it('names the focused toast, also when focus is on a control inside it', () => {
    renderPage();
    const { received, stop } = start(platform.listenToEscape);
    focus('older');
    press('Escape');
    focus('undo');
    press('Escape');
    expect(received).toEqual([
      { type: 'viewport.escape', toastId: 'older' },
      { type: 'viewport.escape', toastId: 'newer' },
    ]);
    stop();
  });

  it('names no toast when focus is elsewhere, so the toaster closes the newest', () => {
    renderPage();
    const { received, stop } = start(platform.listenToEscape);
    focus('page');
    press('Escape');
    focus('viewport');
    press('Escape');
    expect(received).toEqual([
      { type: 'viewport.escape', toastId: null },
      { type: 'viewport.escape', toastId: null },
    ]);
    stop();
  });

  it('ignores other keys, an Escape the page already handled, and every key once stopped', () => {
    renderPage();
    const { received, stop } = start(platform.listenToEscape);
    focus('older');
    press('Enter');
    // A dialog or menu that closes on Escape prevents it: the toast must not close with it.
    byId('older').addEventListener('keydown', (event) => event.preventDefault(), { once: true });
    press('Escape');
    expect(received).toEqual([]);
    stop();
    press('Escape');
    expect(received).toEqual([]);
  });
});

describe('listenToHotkey', () => {
  it('moves focus from the page to the viewport, and Tab past the last control gives it back', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    expect(press('F8')).toBe(true);
    expect(focused()).toBe('viewport');
    // Inside the viewport Tab is the browser's until the last stop.
    for (const id of ['viewport', 'newer', 'reply', 'undo', 'older', 'help']) {
      focus(id);
      expect(press('Tab')).toBe(false);
      expect(focused()).toBe(id);
    }
    focus('close');
    expect(press('Tab')).toBe(true);
    expect(focused()).toBe('page');
    stop();
  });

  it('Shift+Tab from the viewport or its first toast gives focus back; from further in it is the browser’s', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    press('F8');
    expect(press('Tab', { shiftKey: true })).toBe(true);
    expect(focused()).toBe('page');
    press('F8');
    for (const id of ['close', 'help', 'older', 'undo', 'reply']) {
      focus(id);
      expect(press('Tab', { shiftKey: true })).toBe(false);
      expect(focused()).toBe(id);
    }
    focus('newer');
    expect(press('Tab', { shiftKey: true })).toBe(true);
    expect(focused()).toBe('page');
    stop();
  });

  it('Tab either way from a viewport with no toast in it gives focus back', () => {
    renderPage({ toasts: false });
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    press('F8');
    expect(press('Tab')).toBe(true);
    expect(focused()).toBe('page');
    stop();
  });

  it('gives focus back only once, and other keys at the last control are left alone', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    press('F8');
    focus('close');
    expect(press('ArrowDown')).toBe(false);
    expect(focused()).toBe('close');
    press('Tab');
    // Back on the page, the way in is forgotten: Tab into the toasts and out again is plain browser Tab.
    focus('close');
    expect(press('Tab')).toBe(false);
    expect(focused()).toBe('close');
    stop();
  });

  it('leaves Tab to the browser when focus came into the toasts without the hotkey', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('close');
    expect(press('Tab')).toBe(false);
    expect(focused()).toBe('close');
    stop();
  });

  it('forgets where to return once focus moves elsewhere on the page', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    press('F8');
    focus('other');
    focus('close');
    expect(press('Tab')).toBe(false);
    expect(focused()).toBe('close');
    stop();
  });

  it('keeps the place to return to when the hotkey is pressed again from inside the toasts', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    press('F8');
    focus('older');
    expect(press('F8')).toBe(true);
    expect(focused()).toBe('viewport');
    press('Tab', { shiftKey: true });
    expect(focused()).toBe('page');
    stop();
  });

  it('leaves Tab alone once focus has left the viewport for the page background', () => {
    renderPage({ toasts: false });
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    press('F8');
    // A click on the background: focus goes to <body>, and no element receives focusin.
    byId('viewport').blur();
    expect(press('Tab')).toBe(false);
    expect(focused()).toBe('BODY');
    stop();
  });

  it('answers only its own hotkey, every key of it', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey(['altKey', 'KeyT']));
    focus('page');
    expect(press('t', { code: 'KeyT' })).toBe(false);
    expect(press('u', { code: 'KeyU', altKey: true })).toBe(false);
    expect(press('F8')).toBe(false);
    expect(focused()).toBe('page');
    expect(press('t', { code: 'KeyT', altKey: true })).toBe(true);
    expect(focused()).toBe('viewport');
    stop();
  });

  it('with no hotkey configured, no key moves focus', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey([]));
    focus('page');
    for (const key of ['F8', 'Tab', 'a']) {
      expect(press(key)).toBe(false);
      expect(focused()).toBe('page');
    }
    stop();
  });

  it('leaves every key to the page while no viewport is rendered', () => {
    document.body.innerHTML = '<button id="page">Save</button>';
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    expect(press('F8')).toBe(false);
    expect(focused()).toBe('page');
    document.dispatchEvent(new FocusEvent('focusin'));
    stop();
  });

  it('when it stops (the last toast left) with focus inside, gives focus back', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    press('F8');
    focus('undo');
    stop();
    expect(focused()).toBe('page');
    // Stopped: the hotkey no longer moves focus.
    expect(press('F8')).toBe(false);
    expect(focused()).toBe('page');
  });

  it('when it stops with focus outside the viewport, or nowhere to return to, leaves focus where it is', () => {
    renderPage();
    const first = start(platform.listenToHotkey(['F8']));
    focus('page');
    press('F8');
    byId('viewport').blur();
    first.stop();
    expect(focused()).toBe('BODY');

    const second = start(platform.listenToHotkey(['F8']));
    focus('undo');
    second.stop();
    expect(focused()).toBe('undo');

    // The element focus came from has left the page.
    const third = start(platform.listenToHotkey(['F8']));
    focus('other');
    press('F8');
    byId('other').remove();
    focus('undo');
    third.stop();
    expect(focused()).toBe('undo');
  });

  it('stops without error when the viewport is already gone', () => {
    renderPage();
    const { stop } = start(platform.listenToHotkey(['F8']));
    focus('page');
    press('F8');
    byId('viewport').remove();
    stop();
    expect(focused()).toBe('BODY');
  });
});

describe('the listeners clean up', () => {
  it('each removes every window and document listener it added when stopped', () => {
    renderPage();
    const left = trackListeners();
    for (const logic of [
      platform.watchWindowFocus,
      platform.watchPageVisibility,
      platform.listenToHotkey(['F8']),
      platform.listenToEscape,
    ]) {
      const { stop } = start(logic);
      expect(left()).not.toEqual([]);
      stop();
      expect(left()).toEqual([]);
    }
  });
});

describe('toasterSettingsFrom', () => {
  it('takes each toaster setting from its own field of the app config', () => {
    const toast: ToastConfig = {
      ...config.toast,
      durationMs: 1,
      maxVisible: 2,
      removeDelayMs: 3,
      swipeDirection: 'up',
      swipeThresholdPx: 4,
      swipeStartTouchPx: 5,
      swipeStartPx: 6,
    };
    expect(platform.toasterSettingsFrom(toast)).toEqual({
      durationMs: 1,
      maxVisible: 2,
      removeDelayMs: 3,
      swipe: { direction: 'up', thresholdPx: 4, startTouchPx: 5, startPx: 6 },
    });
  });
});

describe('createBrowserToaster', () => {
  function startBrowserToaster(toast: ToastConfig = config.toast) {
    // The app starts it as a child with system id `toaster`; the toast API finds it by that id.
    return createActor(platform.createBrowserToaster(toast), { systemId: 'toaster' }).start();
  }

  it('shows what toast.add sends, counts it, and closes it after its duration', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const toaster = startBrowserToaster({ ...config.toast, durationMs: 3000, removeDelayMs: 100 });
    expect(api.toastDiagnostics()).toEqual({ liveToastActors: 0, shown: 0, queued: 0 });
    api.toast.add({ title: 'Saved' });
    expect(api.toastDiagnostics()).toEqual({ liveToastActors: 1, shown: 1, queued: 0 });
    vi.advanceTimersByTime(3099);
    expect(api.toastDiagnostics()?.shown).toBe(1);
    vi.advanceTimersByTime(1);
    expect(toaster.getSnapshot().hasTag('empty')).toBe(true);
    toaster.stop();
    expect(api.toastDiagnostics()).toBeNull();
  });

  it('holds a toast’s time while the window is in the background, on the page clock', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const toaster = startBrowserToaster({ ...config.toast, durationMs: 5000, removeDelayMs: 200 });
    api.toast.add({ title: 'Saved' });
    vi.advanceTimersByTime(3000);
    window.dispatchEvent(new Event('blur'));
    expect(toaster.getSnapshot().hasTag('paused')).toBe(true);
    vi.advanceTimersByTime(60_000);
    window.dispatchEvent(new Event('focus'));
    // 2000 ms were left when the window lost focus.
    vi.advanceTimersByTime(2199);
    expect(api.toastDiagnostics()?.shown).toBe(1);
    vi.advanceTimersByTime(1);
    expect(toaster.getSnapshot().hasTag('empty')).toBe(true);
    toaster.stop();
  });

  it('takes focus in on its configured hotkey, closes on Escape, and gives focus back when the last toast leaves', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    renderPage({ toasts: false });
    const toaster = startBrowserToaster({ ...config.toast, hotkey: ['F9'], removeDelayMs: 200 });
    api.toast.add({ title: 'Saved' });
    focus('page');
    press('F9');
    expect(focused()).toBe('viewport');
    press('Escape');
    vi.advanceTimersByTime(200);
    expect(toaster.getSnapshot().hasTag('empty')).toBe(true);
    expect(focused()).toBe('page');
    toaster.stop();
  });

  it('keeps working after the last toast leaves with focus clicked into it, without the hotkey', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    renderPage();
    const toaster = startBrowserToaster({ ...config.toast, removeDelayMs: 200 });
    api.toast.add({ id: 'older', title: 'Saved' });
    focus('older');
    press('Escape');
    vi.advanceTimersByTime(200);
    expect(toaster.getSnapshot().hasTag('empty')).toBe(true);
    expect(toaster.getSnapshot().status).toBe('active');
    api.toast.add({ title: 'Saved again' });
    expect(api.toastDiagnostics()?.shown).toBe(1);
    toaster.stop();
  });

  it('keeps working when toasts come and go before the viewport is rendered (the view loads lazily)', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const toaster = startBrowserToaster({ ...config.toast, durationMs: 1000, removeDelayMs: 200 });
    api.toast.add({ title: 'Saved' });
    vi.advanceTimersByTime(1200);
    expect(toaster.getSnapshot().hasTag('empty')).toBe(true);
    expect(toaster.getSnapshot().status).toBe('active');
    api.toast.add({ title: 'Saved again' });
    expect(api.toastDiagnostics()?.shown).toBe(1);
    toaster.stop();
  });
});
