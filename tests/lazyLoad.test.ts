// @vitest-environment happy-dom
// Code left out of the first load (src/platform/lazyLoad.ts): when it is fetched, and how a module that is on
// its way, loaded, or failed looks to the components waiting for it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyModule, onFirstIntent, whenIdle } from '../src/platform/lazyLoad';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

/** A promise the test settles when it chooses. */
function controlled<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('the first sign of intent', () => {
  it.each([
    ['a mouse moving', () => new PointerEvent('pointermove', { pointerType: 'mouse', bubbles: true })],
    ['a finger pressing', () => new PointerEvent('pointerdown', { pointerType: 'touch', bubbles: true })],
    ['a key press', () => new KeyboardEvent('keydown', { key: 'Tab', bubbles: true })],
    ['a focus change', () => new FocusEvent('focusin', { bubbles: true })],
  ])('loads once on %s, and never again', (_, event) => {
    const load = vi.fn();
    onFirstIntent(load);
    document.body.innerHTML = '<button>Go</button>';
    const button = document.querySelector('button') as HTMLButtonElement;
    button.dispatchEvent(event());
    expect(load).toHaveBeenCalledOnce();
    for (const type of ['pointermove', 'pointerdown', 'keydown', 'focusin']) {
      button.dispatchEvent(new Event(type, { bubbles: true }));
    }
    expect(load).toHaveBeenCalledOnce();
  });

  it('ignores a finger resting on the screen: a touch never opens a hover tooltip', () => {
    const load = vi.fn();
    const cancel = onFirstIntent(load);
    document.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'touch' }));
    expect(load).not.toHaveBeenCalled();
    cancel();
  });

  it('hears the intent before the page does, even where the page stops the event', () => {
    const load = vi.fn();
    const cancel = onFirstIntent(load);
    document.body.innerHTML = '<input>';
    const input = document.querySelector('input') as HTMLInputElement;
    input.addEventListener('keydown', (event) => event.stopPropagation());
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    expect(load).toHaveBeenCalledOnce();
    cancel();
  });

  it('never delays scrolling: its listeners are passive, and cancelling removes those very listeners', () => {
    const add = vi.spyOn(document, 'addEventListener');
    const remove = vi.spyOn(document, 'removeEventListener');
    const cancel = onFirstIntent(vi.fn());
    expect(add.mock.calls.map(([type, , options]) => [type, options])).toEqual(
      ['pointermove', 'pointerdown', 'keydown', 'focusin'].map((type) => [
        type,
        { capture: true, passive: true },
      ]),
    );
    cancel();
    // A browser removes a capturing listener only when told `capture` again (happy-dom removes it either way).
    expect(remove.mock.calls).toEqual(add.mock.calls.map(([type, listener]) => [type, listener, true]));
  });

  it('loads nothing once cancelled', () => {
    const load = vi.fn();
    onFirstIntent(load)();
    for (const type of ['pointermove', 'pointerdown', 'keydown', 'focusin']) {
      document.dispatchEvent(new Event(type));
    }
    expect(load).not.toHaveBeenCalled();
  });
});

describe('idle time', () => {
  it('runs when the browser says it is idle, within the time given', () => {
    let idle: (() => void) | undefined;
    const request = vi.fn((callback: () => void, _options?: { timeout: number }) => {
      idle = callback;
      return 7;
    });
    const cancelIdle = vi.fn();
    vi.stubGlobal('requestIdleCallback', request);
    vi.stubGlobal('cancelIdleCallback', cancelIdle);
    const run = vi.fn();
    const cancel = whenIdle(run, 500);
    expect(request.mock.calls[0]?.[1]).toEqual({ timeout: 500 });
    expect(run).not.toHaveBeenCalled();
    idle?.();
    expect(run).toHaveBeenCalledOnce();
    cancel();
    expect(cancelIdle).toHaveBeenCalledWith(7);
  });

  it('waits at most 2 s for idle time unless told otherwise', () => {
    const request = vi.fn((_callback: () => void, _options?: { timeout: number }) => 1);
    vi.stubGlobal('requestIdleCallback', request);
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    whenIdle(vi.fn());
    expect(request.mock.calls[0]?.[1]).toEqual({ timeout: 2000 });
  });

  it('falls back to a short timer where requestIdleCallback is missing (Safari), which cancel stops', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const run = vi.fn();
    whenIdle(run);
    vi.advanceTimersByTime(199);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledOnce();

    const cancelled = vi.fn();
    whenIdle(cancelled)();
    vi.advanceTimersByTime(1_000);
    expect(cancelled).not.toHaveBeenCalled();
  });
});

describe('a lazily loaded module', () => {
  it('is absent until it has loaded, then there for everyone who asked, from one import', async () => {
    const arrival = controlled<{ name: string }>();
    const importer = vi.fn(() => arrival.promise);
    const lazy = lazyModule(importer);
    const first = lazy.load();
    const second = lazy.load();
    expect(lazy.get()).toBeUndefined();
    arrival.resolve({ name: 'tooltip' });
    await expect(first).resolves.toEqual({ name: 'tooltip' });
    await expect(second).resolves.toEqual({ name: 'tooltip' });
    expect(lazy.get()).toEqual({ name: 'tooltip' });
    await lazy.load();
    expect(importer).toHaveBeenCalledOnce();
  });

  it('tells its subscribers when it arrives, but not those who left', async () => {
    const lazy = lazyModule(async () => ({ name: 'menu' }));
    const staying = vi.fn(() => expect(lazy.get()).toEqual({ name: 'menu' }));
    const leaving = vi.fn();
    lazy.subscribe(staying);
    lazy.subscribe(leaving)();
    await lazy.load();
    expect(staying).toHaveBeenCalledOnce();
    expect(leaving).not.toHaveBeenCalled();
  });

  it('does not call a subscriber that joined while it was calling the others: that one finds the module loaded', async () => {
    const lazy = lazyModule(async () => ({ name: 'menu' }));
    const late = vi.fn();
    lazy.subscribe(() => lazy.subscribe(late));
    await lazy.load();
    expect(late).not.toHaveBeenCalled();
  });

  it('forgets a failed import, so the next need tries again', async () => {
    const importer = vi
      .fn<() => Promise<{ name: string }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ name: 'hover card' });
    const lazy = lazyModule(importer);
    await expect(lazy.load()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(lazy.get()).toBeUndefined();
    await expect(lazy.load()).resolves.toEqual({ name: 'hover card' });
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
