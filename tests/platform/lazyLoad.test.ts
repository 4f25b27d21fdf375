// @vitest-environment happy-dom
// Code left out of the first load (src/platform/lazyLoad.ts): when it is fetched, and how a module that is on
// its way, loaded, or failed looks to the components waiting for it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyModule, whenIdle } from '../../src/platform/lazyLoad';

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
